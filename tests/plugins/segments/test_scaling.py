"""The segment engine on hostile model text: time grows linearly (n, 2n, 4n) in every strategy."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from linewise_segments.plugin import create_stdout_parser
from scaling import assert_linear

TS = "2026-01-01T00:00:00.000Z"

# Unclosed tags, attribute runs, quotes, entities, JSON and sentinel openings:
# the shapes that make a naive tag or JSON scanner retry from every position.
HOSTILE: dict[str, Callable[[int], str]] = {
    "many <": lambda n: "<" * n,
    "unfinished tags": lambda n: "<a " * (n // 3),
    "attribute run": lambda n: "<write_file " + "a=" * (n // 2),
    "spaces in an attribute": lambda n: "<write_file path=" + " " * n + "x",
    "unclosed quote": lambda n: '<write_file path="' + "a" * n,
    "closing tag without >": lambda n: "</" + "a" * (n // 2) + " " * (n // 2),
    "JSON openings": lambda n: '{"' * (n // 2),
    "JSON tool with brackets": lambda n: '{"tool": ' + "[" * (n // 2),
    "sentinel openings": lambda n: "[[SEG_START" * (n // 11),
    "CDATA ends": lambda n: "<write_file><![CDATA[" + "]]" * (n // 2),
    "entities": lambda n: "<run_bash>" + "&#" * (n // 2) + "</run_bash>",
}
STRATEGIES = {"xml": {}, "json": {"AUTOBYTEUS_STREAM_PARSER": "json"}}
STRATEGIES["sentinel"] = {"AUTOBYTEUS_STREAM_PARSER": "sentinel"}


@pytest.mark.parametrize("strategy", STRATEGIES.values(), ids=STRATEGIES.keys())
@pytest.mark.parametrize("make", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_text_takes_linear_time(
    strategy: dict[str, str], make: Callable[[int], str]
) -> None:
    def work(text: str) -> None:
        parser = create_stdout_parser(strategy)
        parser.parse_line(text, TS)
        parser.finish(TS)

    assert_linear(work, make, 4_000)
