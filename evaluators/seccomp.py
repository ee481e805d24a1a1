"""Forbid an evaluator programs, processes, sockets and namespaces: a seccomp filter, stdlib only.

Under bubblewrap (``evaluators.isolation``) the namespaces already hide the network, the
database and every file outside the case package, but a process that can ``exec`` can still
run whatever binaries it sees and can fork without bound; without bubblewrap (``process``) this
filter is also what keeps the network closed. Scoring a CSV needs none of it, so the child
installs the filter, in every mode, right before it imports the case's code:

* ``execve`` / ``execveat`` fail with EPERM (``subprocess`` raises ``PermissionError``);
* ``fork`` / ``vfork`` and a ``clone`` that does not create a thread fail with EPERM, so
  ``os.fork`` and ``multiprocessing`` fail while numpy's and Python's threads still work;
* ``clone3`` answers ENOSYS (its flags sit in memory a filter cannot read), which makes the C
  library fall back to ``clone``, whose flags the filter can check;
* ``socket`` fails with EPERM for every family but AF_UNIX, and ``connect`` always does, so no
  TCP, UDP, raw or netlink socket exists and a Unix socket reaches no listener (not the site's
  PostgreSQL socket either); ``sendto`` with an address and ``sendmsg`` are refused too, so no
  datagram reaches a named socket. This is what keeps the network closed when the evaluator
  runs without bubblewrap's network namespace;
* ``unshare`` and ``clone`` with any CLONE_NEW* flag, and ``setns``, fail with EPERM: no nested
  user namespace (whose root could mount over what the sandbox hides);
* ``ptrace``, ``process_vm_readv`` / ``writev`` (the parent's memory) and io_uring (which would
  run socket calls out of the filter's sight) fail with EPERM;
* any other architecture's system calls (i386 through ``int 0x80`` on x86_64, arm32 on aarch64)
  and x32 calls on x86_64 are refused, so the numbers above cannot be dodged.

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
# CLONE_NEWTIME, NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID and NEWNET.
_CLONE_NEWNS_ANY = 0x00000080 | 0x00020000 | 0x7E000000
_AF_UNIX = 1
# Offsets into struct seccomp_data: nr, arch, instruction pointer, then args[6] (8 bytes each,
# little-endian on both machines below, so an argument's low word comes first).
_NR, _ARCH, _ARG0_LOW = 0, 4, 16
_ARG4_LOW = _ARG0_LOW + 4 * 8


# Per machine: (AUDIT_ARCH value, {system call: number}, x32 bit or 0).
_TABLES: dict[str, tuple[int, dict[str, int], int]] = {
    "x86_64": (
        0xC000003E,
        {
            "clone": 56,
            "fork": 57,
            "vfork": 58,
            "execve": 59,
            "execveat": 322,
            "clone3": 435,
            "socket": 41,
            "connect": 42,
            "sendto": 44,
            "sendmsg": 46,
            "sendmmsg": 307,
            "unshare": 272,
            "setns": 308,
            "ptrace": 101,
            "process_vm_readv": 310,
            "process_vm_writev": 311,
            "io_uring_setup": 425,
            "io_uring_enter": 426,
            "io_uring_register": 427,
        },
        0x40000000,
    ),
    "aarch64": (
        0xC00000B7,
        {
            "clone": 220,
            "execve": 221,
            "execveat": 281,
            "clone3": 435,
            "socket": 198,
            "connect": 203,
            "sendto": 206,
            "sendmsg": 211,
            "sendmmsg": 269,
            "unshare": 97,
            "setns": 268,
            "ptrace": 117,
            "process_vm_readv": 270,
            "process_vm_writev": 271,
            "io_uring_setup": 425,
            "io_uring_enter": 426,
            "io_uring_register": 427,
        },
        0,
    ),
}

#: Refused whatever their arguments. io_uring would run connect and socket calls where no
#: filter sees them; ptrace and process_vm_* would read the parent's memory (and its secrets).
_ALWAYS_REFUSED = (
    "execve",
    "execveat",
    "fork",
    "vfork",
    "connect",
    "sendmsg",
    "sendmmsg",
    "setns",
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
)


def _op(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("HBBI", code, jt, jf, k)


def _when(number: int, checks: list[bytes]) -> list[bytes]:
    """``checks`` (which end in a return) for system call ``number``; others skip past them."""
    return [_op(_JEQ_K, number, jf=len(checks)), *checks]


def _argument_checks(calls: dict[str, int], deny: int) -> list[bytes]:
    allow = _op(_RET_K, _RET_ALLOW)
    refuse = _op(_RET_K, deny)
    body = []
    # socket: only AF_UNIX (its family is the low word of the first argument).
    body += _when(
        calls["socket"], [_op(_LD_W_ABS, _ARG0_LOW), _op(_JEQ_K, _AF_UNIX, jt=1), refuse, allow]
    )
    # sendto: only without a destination address (a connected socket, or a socketpair), so no
    # datagram reaches a named socket of the host.
    body += _when(
        calls["sendto"],
        [
            _op(_LD_W_ABS, _ARG4_LOW),
            _op(_JEQ_K, 0, jf=2),
            _op(_LD_W_ABS, _ARG4_LOW + 4),
            _op(_JEQ_K, 0, jt=1),
            refuse,
            allow,
        ],
    )
    # unshare: no new namespace of any kind (above all no user namespace, whose root could
    # mount and reach what the sandbox hides).
    body += _when(
        calls["unshare"],
        [_op(_LD_W_ABS, _ARG0_LOW), _op(_JSET_K, _CLONE_NEWNS_ANY, jf=1), refuse, allow],
    )
    # clone: only a thread (CLONE_THREAD in the flags), and no new namespace.
    body += _when(
        calls["clone"],
        [
            _op(_LD_W_ABS, _ARG0_LOW),
            _op(_JSET_K, _CLONE_NEWNS_ANY, jf=1),
            refuse,
            _op(_JSET_K, _CLONE_THREAD, jt=1),
            refuse,
            allow,
        ],
    )
    return body


def program(machine: str) -> bytes | None:
    """The filter for ``machine`` as packed ``sock_filter`` entries, or None when unknown."""
    if machine not in _TABLES:
        return None
    arch, calls, x32_bit = _TABLES[machine]
    deny = _RET_ERRNO | errno.EPERM
    body = [_op(_LD_W_ABS, _ARCH), _op(_JEQ_K, arch, jt=1), _op(_RET_K, deny)]
    body.append(_op(_LD_W_ABS, _NR))
    if x32_bit:
        body += [_op(_JGE_K, x32_bit, jf=1), _op(_RET_K, deny)]
    for name in _ALWAYS_REFUSED:
        if name in calls:
            body += [_op(_JEQ_K, calls[name], jf=1), _op(_RET_K, deny)]
    body += [_op(_JEQ_K, calls["clone3"], jf=1), _op(_RET_K, _RET_ERRNO | errno.ENOSYS)]
    body += _argument_checks(calls, deny)
    body.append(_op(_RET_K, _RET_ALLOW))
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
    return "process filter installed: no exec, no fork, no network, no new namespaces"
