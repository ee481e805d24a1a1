"""Forbid an evaluator to start programs or processes: a small seccomp filter, standard library only.

The namespace sandbox (``evaluators.isolation``) already hides the network, the database and
every file outside the case package, but a process that can ``exec`` can still run whatever
binaries it sees and can fork without bound. Scoring a CSV needs neither, so the child installs
this filter right before it imports the case's code:

* ``execve`` / ``execveat`` fail with EPERM (``subprocess`` raises ``PermissionError``);
* ``fork`` / ``vfork`` and a ``clone`` that does not create a thread fail with EPERM, so
  ``os.fork`` and ``multiprocessing`` fail while numpy's and Python's threads still work;
* ``clone3`` answers ENOSYS (its flags sit in memory a filter cannot read), which makes the C
  library fall back to ``clone``, whose flags the filter can check;
* x32 system calls on x86_64 are refused, so the numbers above cannot be dodged.

The filter is written as classic BPF by hand with ``ctypes`` (no libseccomp needed) and is
installed with ``PR_SET_NO_NEW_PRIVS``, so it cannot be lifted by the code it constrains.
Architectures without a table here get no filter; ``install`` says so and the caller logs it.
"""

from __future__ import annotations

import ctypes
import errno
import platform
import struct

# Classic BPF opcodes (linux/filter.h) and seccomp return values (linux/seccomp.h).
_LD_W_ABS = 0x20
_JEQ_K = 0x15
_JGE_K = 0x35
_JSET_K = 0x45
_RET_K = 0x06
_RET_ALLOW = 0x7FFF0000
_RET_ERRNO = 0x00050000
_PR_SET_NO_NEW_PRIVS = 38
_PR_SET_SECCOMP = 22
_SECCOMP_MODE_FILTER = 2
_CLONE_THREAD = 0x00010000
# Offsets into struct seccomp_data: nr, arch, instruction pointer, then args[6].
_NR, _ARCH, _ARG0_LOW = 0, 4, 16


# Per machine: (AUDIT_ARCH value, {system call: number}, x32 bit or 0).
_TABLES: dict[str, tuple[int, dict[str, int], int]] = {
    "x86_64": (
        0xC000003E,
        {"clone": 56, "fork": 57, "vfork": 58, "execve": 59, "execveat": 322, "clone3": 435},
        0x40000000,
    ),
    "aarch64": (
        0xC00000B7,
        {"clone": 220, "execve": 221, "execveat": 281, "clone3": 435},
        0,
    ),
}


def _op(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("HBBI", code, jt, jf, k)


def program(machine: str) -> bytes | None:
    """The filter for ``machine`` as packed ``sock_filter`` entries, or None when unknown."""
    if machine not in _TABLES:
        return None
    arch, calls, x32_bit = _TABLES[machine]
    deny = _RET_ERRNO | errno.EPERM
    refused = [calls[name] for name in ("execve", "execveat", "fork", "vfork") if name in calls]
    body = [_op(_LD_W_ABS, _ARCH), _op(_JEQ_K, arch, jt=1), _op(_RET_K, deny)]
    body.append(_op(_LD_W_ABS, _NR))
    if x32_bit:
        body += [_op(_JGE_K, x32_bit, jf=1), _op(_RET_K, deny)]
    for number in refused:
        body += [_op(_JEQ_K, number, jf=1), _op(_RET_K, deny)]
    body += [_op(_JEQ_K, calls["clone3"], jf=1), _op(_RET_K, _RET_ERRNO | errno.ENOSYS)]
    # clone: allowed only with CLONE_THREAD in its flags (the low word of the first argument).
    body += [
        _op(_JEQ_K, calls["clone"], jf=3),
        _op(_LD_W_ABS, _ARG0_LOW),
        _op(_JSET_K, _CLONE_THREAD, jt=1),
        _op(_RET_K, deny),
        _op(_RET_K, _RET_ALLOW),
    ]
    return b"".join(body)


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def install() -> str:
    """Install the filter on this process (and its threads to come); return what was done."""
    machine = platform.machine()
    code = program(machine)
    if code is None:
        return f"no process filter for {machine}: exec and fork stay possible"
    libc = ctypes.CDLL(None, use_errno=True)
    buffer = ctypes.create_string_buffer(code, len(code))
    prog = _Program(len(code) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
    if libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP) failed")
    return "process filter installed: no exec, no fork"
