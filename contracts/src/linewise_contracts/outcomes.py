"""The words a run's outcome is said in, the same for every CLI (contract 1.3).

``RunSummary.outcome`` is one of :data:`OUTCOMES` (or ``None`` when the run
says nothing about how it ended). Each plugin maps its CLI's own stop reasons
into these words and keeps the raw reason in ``details`` where it is useful.

- ``completed``: the run ended normally with the agent's answer.
- ``interrupted``: a person or the caller stopped it (Ctrl-C, Esc, a
  cancelled prompt, Codex's ``turn_aborted: interrupted``). Not a failure.
- ``failed``: an error ended it (an API error, a crash the CLI reported).
- ``max_turns``: the CLI's turn limit ended it.
- ``max_tokens``: the model's output limit ended its answer.
- ``budget``: a spending or token budget set for the run ended it.
- ``refused``: the model refused to continue.
- ``cut_off``: the stream stopped before the CLI's own end of the run (a
  timeout, a kill, a file still being written).
"""

from __future__ import annotations

from typing import Final, Literal, get_args

__all__ = ["FAILED_OUTCOMES", "OUTCOMES", "Outcome", "is_outcome"]

Outcome = Literal[
    "completed",
    "interrupted",
    "failed",
    "max_turns",
    "max_tokens",
    "budget",
    "refused",
    "cut_off",
]

#: Every outcome word, in the order of the module docstring.
OUTCOMES: Final[tuple[Outcome, ...]] = get_args(Outcome)

#: The outcomes that are a failure of the run (``is_error`` is True with them).
FAILED_OUTCOMES: Final[frozenset[Outcome]] = frozenset({"failed", "max_turns", "budget"})


def is_outcome(value: object) -> bool:
    """True for one of the :data:`OUTCOMES` words."""
    return isinstance(value, str) and value in OUTCOMES
