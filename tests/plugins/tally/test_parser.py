"""The Tally parser on hostile lines: its field regex stays linear."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from linewise_tally import create_stdout_parser
from scaling import assert_linear

TS = "2026-01-01T00:00:00.000Z"


def test_result_fields_are_read_where_a_word_starts() -> None:
    entries = create_stdout_parser().parse_line("# in=10 out=5 xin=7 cost=0.5 a-cached=2", TS)
    assert entries[0]["kind"] == "result"
    assert (entries[0]["inputTokens"], entries[0]["cachedTokens"]) == (10, 2)
    assert entries[0]["costUsd"] == 0.5


@pytest.mark.parametrize(
    "make",
    [
        lambda n: "#" + "a" * n,  # one long word without "=": took 13 s at 20 KB before
        lambda n: "# " + "a= " * (n // 3),
        lambda n: "$[" + "a" * n,
        lambda n: "=[1] ok (" + " " * n,
    ],
)
def test_hostile_lines_take_linear_time(make: Callable[[int], str]) -> None:
    parser = create_stdout_parser()
    assert_linear(lambda line: parser.parse_line(line, TS), make, 4_000)
