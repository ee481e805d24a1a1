"""The three ways a command can fail, each with its own exit code.

Agents drive ``fde`` from a shell and branch on the exit status, so the kind of failure has to
be visible without parsing text: 2 means "you called me wrong", 1 means "the server said no",
3 means "I could not talk to the server at all" (retrying may help).
"""

from __future__ import annotations


class FdeError(Exception):
    """A failure the user can act on; the CLI prints ``str(error)`` and exits with ``exit_code``."""

    exit_code = 1


class UsageError(FdeError):
    """Wrong arguments or missing local state (no run id, no workspace, missing file)."""

    exit_code = 2


class ApiError(FdeError):
    """The server answered with a non-2xx status (or with something that is not the contract)."""

    exit_code = 1

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{message} (HTTP {status}, {code})" if status else message)
        self.status = status
        self.code = code
        self.message = message


class ConnectionProblem(FdeError):
    """No answer from the server: refused, DNS failure, timeout, connection dropped."""

    exit_code = 3
