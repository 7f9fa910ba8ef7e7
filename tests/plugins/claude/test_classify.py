"""The failure classifiers against every reference case, and their regexes against hostile text."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest
from linewise_claude import (
    is_image_processing_error,
    is_model_not_found_error,
    is_poisoned_message_id_error,
    is_provider_quota_error,
    is_transient_upstream_error,
    is_unknown_session_error,
    login_required,
    retry_not_before,
)
from linewise_contracts.extract import iso_timestamp
from support import corpus_json


def _cases(fn: str) -> list[dict[str, Any]]:
    cases = corpus_json("paperclip", "claude-local", "expected.json")["server_parse"]
    found = [case for case in cases if case["fn"] == fn]
    assert found, fn
    return found


def _call_args(bag: dict[str, Any]) -> tuple[Any, list[str]]:
    """The reference's {parsed, stdout, stderr, errorMessage} as (result, texts)."""
    texts = [bag.get(key) or "" for key in ("errorMessage", "stdout", "stderr")]
    return bag.get("parsed"), [text for text in texts if text]


@pytest.mark.parametrize(
    ("fn", "classifier"),
    [
        ("isClaudeTransientUpstreamError", is_transient_upstream_error),
        ("isClaudeProviderQuotaError", is_provider_quota_error),
        ("isClaudeModelNotFoundError", is_model_not_found_error),
    ],
)
def test_text_classifiers_match_the_reference(fn: str, classifier: Callable[..., bool]) -> None:
    for case in _cases(fn):
        result, texts = _call_args(case["args"][0])
        assert classifier(result, *texts) is case["output"], case["test"]


@pytest.mark.parametrize(
    ("fn", "classifier"),
    [
        ("isClaudePoisonedPreviousMessageIdError", is_poisoned_message_id_error),
        ("isClaudeImageProcessingError", is_image_processing_error),
    ],
)
def test_result_classifiers_match_the_reference(fn: str, classifier: Callable[..., bool]) -> None:
    for case in _cases(fn):
        assert classifier(case["args"][0]) is case["output"], case["test"]


def test_login_required_matches_the_reference() -> None:
    for case in _cases("detectClaudeLoginRequired"):
        bag = case["args"][0]
        result, texts = _call_args(bag)
        required, url = login_required(result, *texts)
        assert required is case["output"]["requiresLogin"], case["test"]
        assert url == case["output"]["loginUrl"]
    assert login_required(None, "Not logged in. Visit https://claude.ai/oauth/authorize.") == (
        True,
        "https://claude.ai/oauth/authorize",
    )


def test_retry_not_before_matches_the_reference() -> None:
    for case in _cases("extractClaudeRetryNotBefore"):
        result, texts = _call_args(case["args"][0])
        now = datetime.fromisoformat(case["args"][1].replace("Z", "+00:00"))
        when = retry_not_before(result, *texts, now=now)
        expected = case["output"]
        assert (iso_timestamp(when.timestamp()) if when else None) == expected, case["test"]


# -- no regex on agent text backtracks catastrophically ----------------------------------


_HOSTILE = [
    "session " + "x" * 50 + " ",  # the unknown-session gap
    "model " + " " * 50,  # the model-not-found gap
    "out of extra usage resets " + "1" * 20,  # the quota phrase then a broken reset time
    "please run " + "`" * 20,
    "http://" + "a" * 40 + "(",
    "rate-" * 10 + "limit ",
]


def _classify_all(text: str) -> None:
    now = datetime.fromisoformat("2026-01-01T00:00:00+00:00")
    is_unknown_session_error(None, text)
    is_transient_upstream_error(None, text)
    is_model_not_found_error(None, text)
    login_required(None, text)
    retry_not_before(None, text, now=now)


def _seconds(text: str) -> float:
    best = float("inf")
    for _ in range(2):
        start = time.perf_counter()
        _classify_all(text)
        best = min(best, time.perf_counter() - start)
    return best


@pytest.mark.parametrize("unit", _HOSTILE)
def test_classifier_time_grows_linearly_with_hostile_text(unit: str) -> None:
    """Four times the text takes about four times as long, not sixteen (ratios, never absolute
    times; sizes past the CPU caches, where small inputs time erratically)."""
    size = 30_000
    small, large = (_seconds(unit * (size * factor // len(unit))) for factor in (1, 4))
    assert large / max(small, 1e-6) < 10, (small, large)
