"""OpenCode's finish reasons in the contract's outcome words, for stdout runs and stores."""

from __future__ import annotations

from typing import Final

__all__ = ["finish_outcome"]

# The AI SDK's finish reasons OpenCode records on a step; "tool-calls" means the model went on.
_OUTCOMES: Final = {
    "stop": "completed",
    "length": "max_tokens",
    "content-filter": "refused",
    "error": "failed",
}


def finish_outcome(reason: str | None, *, failed: bool, complete: bool) -> str | None:
    """How a run ended: ``cut_off`` when it is not complete, ``failed`` on an error, else the
    last step's finish reason in the contract's words (None for a reason OpenCode does not
    document, kept raw in ``details``)."""
    if not complete:
        return "cut_off" if reason is not None or failed else None
    if failed:
        return "failed"
    if reason is None:
        return None
    return _OUTCOMES.get(reason, "completed" if reason == "tool-calls" else None)
