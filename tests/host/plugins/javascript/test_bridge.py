"""The bridge is the host's alone: a module can neither replace it nor make its answers unbounded.

Each hostile module runs in a child process under the test's own limits (a
timeout and an address-space rlimit), so a broken bound fails the test
instead of hanging the suite or taking the machine's memory.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from bounded import run_bounded
from linewise.plugins.javascript._engine import EngineLimits, JavaScriptParser
from linewise.plugins.javascript._module import read_module

from .conftest import MakePackage

PARSERS = Path(__file__).parent / "parsers"
# Far more than a line under these limits needs; a hang or a runaway hits these first.
TIMEOUT = 60.0
MEMORY_MIB = 1536

_CHILD = """
import json, sys
from linewise.plugins.javascript._engine import EngineLimits, JavaScriptError, JavaScriptParser
from linewise.plugins.javascript._module import read_module

path = sys.argv[1]
with open(path, encoding="utf-8") as handle:
    module = read_module(handle.read(), path)
parser = JavaScriptParser(module, EngineLimits(time_limit=0.5, heap_mib=32))
for line in sys.argv[2:]:
    try:
        result = {"entries": parser.parse_line(line, "T")}
    except JavaScriptError as error:
        result = {"error": str(error)}
    print(json.dumps(result), flush=True)
"""


def _parse(module: str, *lines: str) -> list[dict[str, object]]:
    ended = run_bounded(
        _CHILD, timeout=TIMEOUT, memory_mib=MEMORY_MIB, args=(str(PARSERS / module), *lines)
    )
    assert ended.returncode == 0, str(ended)
    return [json.loads(line) for line in ended.stdout.splitlines()]


def test_a_module_that_replaces_the_bridge_globals_is_still_called_through_the_real_bridge() -> (
    None
):
    # Its parse claims 10^12 long strings and its take hands over one character (or 1 MiB)
    # a call: through it, the host would take strings until it hung or ran out of memory.
    results = _parse("replaces_bridge.js", "one", "big", "two")
    assert results == [
        {"entries": [{"kind": "stdout", "ts": "T", "text": f"parsed {line}"}]}
        for line in ("one", "big", "two")
    ]


def test_a_forged_count_of_long_strings_is_refused_by_the_room_the_text_has() -> None:
    [count, after] = _parse("forges_bridge.js", "count", "after")
    assert "claimed 1000000000000 long strings" in str(count["error"])
    assert after["entries"] == [{"kind": "stdout", "ts": "T", "text": "after " + "y" * 300}]


def test_the_long_strings_of_one_line_are_bounded_by_the_heap_limit() -> None:
    # 100,000 marks the text has room for, each handed over as 1 MiB: 100 GB without a bound.
    [big, after] = _parse("forges_bridge.js", "big", "after")
    assert "more than the heap limit of 32 MiB" in str(big["error"])
    assert "entries" in after


def test_one_time_limit_covers_the_whole_line_not_each_call() -> None:
    # Each string takes 100 ms, under the 0.5 s a call may take: 10^4 s for the line without
    # one limit for all of it.
    [slow, after] = _parse("forges_bridge.js", "slow", "after")
    assert "time limit of 0.5 s" in str(slow["error"])
    assert "entries" in after


def test_no_global_of_the_module_names_the_bridge(parser_source: Callable[[str], str]) -> None:
    probe = """
    export function parseStdoutLine(line, ts) {
      const names = Object.getOwnPropertyNames(globalThis).filter((n) => /linewise/i.test(n));
      return [{ kind: "stdout", ts, text: JSON.stringify(names) }];
    }
    """
    parser = JavaScriptParser(read_module(probe, "probe.js"), EngineLimits(0.5, 32))
    assert parser.parse_line("x", "T")[0]["text"] == "[]"


_CHECK = """
import sys
from linewise.cli import main
sys.exit(main(["check", sys.argv[1], "--examples", "5", "--json"]))
"""


def _check(folder: Path) -> dict[str, str]:
    ended = run_bounded(_CHECK, timeout=TIMEOUT, memory_mib=MEMORY_MIB, args=(str(folder),))
    assert not ended.timed_out, str(ended)
    report = json.loads(ended.stdout)
    return {result["check"]: result for result in report["results"]}


def test_check_of_a_module_that_replaces_the_bridge_ends_and_checks_its_real_parser(
    make_package: MakePackage, parser_source: Callable[[str], str]
) -> None:
    results = _check(make_package(parser_source("replaces_bridge.js")))
    assert results["lines"]["status"] == "pass"


def test_check_of_a_module_that_forges_the_bridge_ends_and_fails_its_lines(
    make_package: MakePackage, parser_source: Callable[[str], str]
) -> None:
    source = parser_source("forges_bridge.js").replace(
        'mode = line === "count" || line === "big" || line === "slow" ? line : "";',
        'mode = "count";',
    )
    assert 'mode = "count";' in source
    results = _check(make_package(source))
    lines = results["lines"]
    assert lines["status"] == "fail"
    assert any("claimed 1000000000000 long strings" in detail for detail in lines["details"])
