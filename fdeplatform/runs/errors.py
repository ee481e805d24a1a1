"""The errors a player can get from run operations, with stable codes.

The same codes go out as REST error bodies and websocket ``error`` frames, so agents can react
to them programmatically (``round_limit`` means stop asking, ``customer_unavailable`` retry).
"""

from __future__ import annotations


class RunError(Exception):
    def __init__(
        self, code: str, message: str, status: int = 400, *, retry_after: float | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.retry_after = retry_after  # seconds, for limits (HTTP 429 Retry-After)

    def as_dict(self) -> dict[str, object]:
        body: dict[str, object] = {"code": self.code, "message": self.message}
        if self.retry_after is not None:
            body["retry_after"] = self.retry_after
        return body


def rate_limited(what: str, retry_after: float) -> RunError:
    return RunError(
        "rate_limited",
        f"Too many {what}; try again in {retry_after:g} s.",
        429,
        retry_after=retry_after,
    )


def not_found() -> RunError:
    # The same answer for "no such run" and "someone else's run": ids reveal nothing.
    return RunError("not_found", "No such run.", 404)
