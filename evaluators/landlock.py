"""A read allowlist without a chroot: Landlock, for evaluators that run without bubblewrap.

Where bubblewrap cannot run (``EVALUATOR_ISOLATION=process``), the evaluator shares the host's
file tree, so process limits alone let it read the site's database, every case and the
settings. Landlock (Linux 5.13+, no root, no daemon) lets an unprivileged process give up file
access for itself and every process it could start: after ``restrict`` the child may read the
paths it was given and write only its scratch folder; any other ``open`` fails with EACCES
(``PermissionError``) even for root, and the rules cannot be lifted again.

Newer kernels give more, used when present (``abi``): truncation rights (ABI 3), TCP bind and
connect (ABI 4, all refused: the seccomp filter already refuses non-Unix sockets) and scoping
(ABI 6: no abstract Unix sockets or signals outside the sandbox).

This module is imported by the sandboxed child, so it uses the standard library only.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import struct
from collections.abc import Iterable
from pathlib import Path

# System call numbers (the same on x86_64 and aarch64, the generic table's values).
_CALLS = {"x86_64": (444, 445, 446), "aarch64": (444, 445, 446)}
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1
_PR_SET_NO_NEW_PRIVS = 38

# Filesystem access rights (linux/landlock.h) by the ABI that introduced them.
_EXECUTE, _WRITE_FILE, _READ_FILE, _READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
_ABI1_ALL = (1 << 13) - 1  # execute .. make_sym
_REFER, _TRUNCATE, _IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
# Network rights (ABI 4) and scopes (ABI 6).
_NET_BIND_TCP, _NET_CONNECT_TCP = 1 << 0, 1 << 1
_SCOPE_ABSTRACT_UNIX, _SCOPE_SIGNAL = 1 << 0, 1 << 1

_READ = _EXECUTE | _READ_FILE | _READ_DIR
_FILE_RIGHTS = _EXECUTE | _WRITE_FILE | _READ_FILE | _TRUNCATE | _IOCTL_DEV

#: Read-only beside the caller's paths: what CPython, numpy and the C library open at run time.
SYSTEM_READ = (
    "/usr",
    "/lib",
    "/lib64",
    "/lib32",
    "/etc/ld.so.cache",
    "/etc/localtime",
    "/proc/self",
    "/sys/devices/system/cpu",
)
#: Devices a program may open for reading and writing (nothing leaves through them).
DEVICES = ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random")


class LandlockError(OSError):
    """The kernel refused to set up the restriction the parent promised."""


def _libc() -> ctypes.CDLL:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc


def abi() -> int:
    """The kernel's Landlock ABI version, 0 when it has none (or this machine has no table)."""
    calls = _CALLS.get(platform.machine())
    if calls is None:
        return 0
    version = _libc().syscall(calls[0], None, ctypes.c_size_t(0), _CREATE_RULESET_VERSION)
    return max(int(version), 0)


def _handled_fs(version: int) -> int:
    rights = _ABI1_ALL
    if version >= 2:
        rights |= _REFER
    if version >= 3:
        rights |= _TRUNCATE
    if version >= 5:
        rights |= _IOCTL_DEV
    return rights


def _ruleset_attr(version: int) -> bytes:
    """``struct landlock_ruleset_attr``, only as long as this kernel knows it to be."""
    fields = [_handled_fs(version)]
    if version >= 4:
        fields.append(_NET_BIND_TCP | _NET_CONNECT_TCP)  # handled, no rule: all refused
    if version >= 6:
        fields.append(_SCOPE_ABSTRACT_UNIX | _SCOPE_SIGNAL)
    return struct.pack(f"{len(fields)}Q", *fields)


def _add_rule(libc: ctypes.CDLL, ruleset: int, path: Path, rights: int, version: int) -> None:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except FileNotFoundError:
        return  # an optional system folder (/lib32) this machine does not have
    try:
        if not path.is_dir():
            rights &= _FILE_RIGHTS
        rights &= _handled_fs(version)
        attr = ctypes.create_string_buffer(struct.pack("=Qi", rights, fd))
        add_rule = _CALLS[platform.machine()][1]
        if libc.syscall(add_rule, ruleset, _RULE_PATH_BENEATH, attr, 0) != 0:
            code = ctypes.get_errno()
            raise LandlockError(code, f"landlock_add_rule({path}): {os.strerror(code)}")
    finally:
        os.close(fd)


def restrict(readable: Iterable[Path], writable: Iterable[Path]) -> str:
    """Allow only reading ``readable`` (and the system) and writing ``writable``, for good.

    Raises ``LandlockError`` when the kernel has no Landlock or refuses a step: the parent
    promised ``process+landlock``, so running unconfined instead would be the silent fallback
    this module exists to remove.
    """
    version = abi()
    if version < 1:
        raise LandlockError(errno.ENOSYS, "this kernel has no Landlock")
    libc = _libc()
    create, _, restrict_self = _CALLS[platform.machine()]
    attr = _ruleset_attr(version)
    ruleset = int(libc.syscall(create, attr, ctypes.c_size_t(len(attr)), 0))
    if ruleset < 0:
        code = ctypes.get_errno()
        raise LandlockError(code, f"landlock_create_ruleset: {os.strerror(code)}")
    try:
        rules = [(Path(p), _READ) for p in SYSTEM_READ] + [(Path(p), _READ) for p in readable]
        rules += [(Path(p), _READ_FILE | _WRITE_FILE | _TRUNCATE) for p in DEVICES]
        rules += [(Path(p), _handled_fs(version)) for p in writable]
        for path, rights in rules:
            _add_rule(libc, ruleset, path, rights, version)
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise LandlockError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
        if libc.syscall(restrict_self, ruleset, 0) != 0:
            code = ctypes.get_errno()
            raise LandlockError(code, f"landlock_restrict_self: {os.strerror(code)}")
    finally:
        os.close(ruleset)
    return f"landlock ABI {version}: reads limited to the allowlist, writes to the scratch folder"
