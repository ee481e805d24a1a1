"""The errors a player can get from run operations, with stable codes.

The same codes go out as REST error bodies and websocket ``error`` frames, so agents can react
to them programmatically (``round_limit`` means stop asking, ``customer_unavailable`` retry).
"""

from __future__ import annotations


class RunError(Exception):
    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


def not_found() -> RunError:
    # The same answer for "no such run" and "someone else's run": ids reveal nothing.
    return RunError("not_found", "No such run.", 404)
