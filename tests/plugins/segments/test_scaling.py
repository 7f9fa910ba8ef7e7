"""The segment engine on hostile model text: time grows linearly (n, 2n, 4n) in every strategy."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from bounded import run_bounded
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
    "a run of [": lambda n: "[" * n,
    "sentinel literals cut short": lambda n: "[[S" * (n // 3),
    "sentinel literals without a header": lambda n: "[[SEG_START x" * (n // 13),
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


def test_a_line_of_eight_million_brackets_renders_as_sentinel_text_within_its_budget(
    tmp_path: Path,
) -> None:
    # About 6 us a character once (a candidate per "["): 50 s for this line. Linear with a
    # small constant, it is a second; the child is killed at 20 s, far from either.
    log = tmp_path / "brackets.log"
    log.write_text("[" * 8_000_000 + "\n", encoding="utf-8")
    code = """
    import sys
    from linewise.cli import main
    sys.exit(main(["render", "-a", "model_stream_sentinel", "-f", "jsonl", sys.argv[1]]))
    """
    ended = run_bounded(code, timeout=20, memory_mib=2048, args=(str(log),))
    assert ended.returncode == 0, str(ended)
    assert "[[[[" in ended.stdout
