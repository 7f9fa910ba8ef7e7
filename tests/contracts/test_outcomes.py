"""The outcome words every plugin says how a run ended in."""

from __future__ import annotations

from linewise_contracts import OUTCOMES
from linewise_contracts.outcomes import FAILED_OUTCOMES, is_outcome


def test_an_interruption_is_its_own_outcome_and_not_a_failure() -> None:
    assert "interrupted" in OUTCOMES
    assert "interrupted" not in FAILED_OUTCOMES
    assert "failed" in FAILED_OUTCOMES


def test_every_failed_outcome_is_an_outcome_word() -> None:
    assert set(OUTCOMES) >= FAILED_OUTCOMES


def test_raw_cli_reasons_are_not_outcome_words() -> None:
    for raw in ("routine", "end_turn", "stop", "aborted", "success", None, 3):
        assert not is_outcome(raw)
    for word in OUTCOMES:
        assert is_outcome(word)
