"""Fixtures for the linewise-segments tests: the reference cases and their configurations."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from linewise_segments import ParserConfig
from support import CORPUS

#: <repo>/../shared/corpus (or LINEWISE_CORPUS): third-party data, read in place and never copied.
CASES_FILE = CORPUS / "autobyteus" / "cases.json"

Case = dict[str, Any]


@pytest.fixture(scope="session")
def cases() -> list[Case]:
    """The reference implementation's 120 cases; skips the test when the corpus is absent."""
    if not CASES_FILE.is_file():
        pytest.skip(f"reference corpus not found at {CASES_FILE} (it lives next to the repo)")
    loaded: list[Case] = json.loads(CASES_FILE.read_text(encoding="utf-8"))
    return loaded


def _config_for(case: Case) -> ParserConfig:
    raw = case["config"]
    options: dict[str, Any] = {}
    if "json_tool_patterns" in raw:
        options["json_tool_patterns"] = tuple(raw["json_tool_patterns"])
    return ParserConfig(
        strategies=tuple(raw["strategy_order"]),
        parse_tool_calls=raw["parse_tool_calls"],
        **options,
    )


@pytest.fixture(scope="session")
def config_for() -> Callable[[Case], ParserConfig]:
    """Maps a case's reference configuration to a ParserConfig."""
    return _config_for
