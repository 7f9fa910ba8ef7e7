"""The engine: limits that stop a runaway and leave the context usable, nothing reachable."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

import pytest
from linewise.plugins.javascript._engine import (
    EngineLimits,
    JavaScriptError,
    JavaScriptParser,
    NotJson,
)
from linewise.plugins.javascript._module import read_module
from linewise_contracts.validation import entry_problem

LIMITS = EngineLimits(time_limit=0.5, heap_mib=32)


@pytest.fixture
def hostile(parser_source: Callable[[str], str]) -> JavaScriptParser:
    return JavaScriptParser(read_module(parser_source("hostile.js"), "hostile.js"), LIMITS)


def test_create_stdout_parser_wins_over_parse_stdout_line(
    parser_source: Callable[[str], str],
) -> None:
    parser = JavaScriptParser(read_module(parser_source("both_exports.js"), "x.js"), LIMITS)
    assert [parser.parse_line("a", "T")[0]["text"] for _ in range(2)] == [
        "stateful 1",
        "stateful 2",
    ]
    parser.reset()
    assert parser.parse_line("a", "T")[0]["text"] == "stateful 1"


def test_each_parser_instance_has_its_own_module_state(
    parser_source: Callable[[str], str],
) -> None:
    module = read_module(parser_source("commonjs.cjs"), "commonjs.cjs")
    first = JavaScriptParser(module, LIMITS)
    ids = [first.parse_line("x", "T")[0]["toolUseId"] for _ in range(3)]
    second = JavaScriptParser(module, LIMITS)
    assert ids == ["toy-1", "toy-2", "toy-3"]
    assert second.parse_line("x", "T")[0]["toolUseId"] == "toy-1"


def test_a_throw_is_an_error_and_the_next_line_parses(hostile: JavaScriptParser) -> None:
    with pytest.raises(JavaScriptError, match="threw Error: boom"):
        hostile.parse_line("throw", "T")
    assert hostile.parse_line("fine", "T") == [{"kind": "stdout", "ts": "T", "text": "fine #2"}]


def test_an_endless_loop_is_stopped_by_the_time_limit(hostile: JavaScriptParser) -> None:
    with pytest.raises(JavaScriptError, match=r"time limit of 0\.5 s"):
        hostile.parse_line("loop", "T")
    assert hostile.parse_line("after", "T")[0]["text"] == "after #2"


def test_the_time_limit_is_per_call(hostile: JavaScriptParser) -> None:
    hostile.parse_line("one", "T")
    time.sleep(0.6)  # longer than the limit, but not inside a call
    assert hostile.parse_line("two", "T")[0]["text"] == "two #2"


def test_unbounded_allocation_is_stopped_by_the_heap_limit(hostile: JavaScriptParser) -> None:
    with pytest.raises(JavaScriptError, match="heap limit of 32 MiB"):
        hostile.parse_line("grow", "T")
    for number in range(2, 5):
        assert hostile.parse_line("after", "T")[0]["text"] == f"after #{number}"


def test_runaway_recursion_is_an_error(hostile: JavaScriptParser) -> None:
    with pytest.raises(JavaScriptError, match="RangeError"):
        hostile.parse_line("deep", "T")
    assert hostile.parse_line("after", "T")[0]["text"] == "after #2"


def test_no_host_object_is_reachable(hostile: JavaScriptParser) -> None:
    reachable = json.loads(hostile.parse_line("probe", "T")[0]["text"])
    dynamic_import = reachable.pop("dynamicImport")
    assert set(reachable.values()) == {"undefined"}, reachable
    # import() only makes a promise: no job ever runs, and there is no module loader.
    assert dynamic_import == "promise"


@pytest.mark.parametrize(
    ("line", "what"),
    [
        ("function", "function at input.f"),
        ("date", "a Date at text"),
        ("nan", "NaN at input.n"),
    ],
)
def test_values_that_are_not_plain_json_make_invalid_entries(
    hostile: JavaScriptParser, line: str, what: str
) -> None:
    entries = hostile.parse_line(line, "T")
    assert len(entries) == 1 and isinstance(entries[0], NotJson)
    assert entries[0].description == what
    assert entry_problem(entries[0]) == f"entry must be a dict, got JavaScript {what}"


def test_a_result_that_is_not_a_list_comes_back_as_it_is(hostile: JavaScriptParser) -> None:
    assert hostile.parse_line("object", "T") == {"kind": "stdout", "ts": "T", "text": "object"}


def test_undefined_fields_are_absent_as_in_json() -> None:
    source = (
        "export function parseStdoutLine(line, ts) {\n"
        "  return [{ kind: 'tool_call', ts, name: 'x', input: {}, toolUseId: undefined }];\n}\n"
    )
    parser = JavaScriptParser(read_module(source, "x.js"), LIMITS)
    assert parser.parse_line("a", "T") == [
        {"kind": "tool_call", "ts": "T", "name": "x", "input": {}}
    ]


def test_a_second_thread_is_refused(parser_source: Callable[[str], str]) -> None:
    import threading

    parser = JavaScriptParser(read_module(parser_source("esm_static.js"), "x.js"), LIMITS)
    parser.parse_line("first", "T")
    errors: list[BaseException] = []

    def other() -> None:
        try:
            parser.parse_line("second", "T")
        except JavaScriptError as error:
            errors.append(error)

    thread = threading.Thread(target=other)
    thread.start()
    thread.join()
    assert len(errors) == 1 and "second thread" in str(errors[0])


ECHO = (
    "export function parseStdoutLine(line, ts) {\n"
    "  const extra = line.startsWith('pad') ? 'y'.repeat(300) : '';\n"
    "  return [{ kind: 'tool_call', ts, name: 'echo', input: { line, nested: [line + extra] } }];\n"
    "}\n"
)


@pytest.mark.parametrize(
    "line",
    [
        "short",
        "long " + "x" * 5000,
        "pad with \u0000 a NUL " + "z" * 400,
        "\u0001 starts like a mark",
        "\u00011 exactly like a mark " + "q" * 300,
        "\u0001\u0000 a mark that cannot leave as it is",
        "emoji \U0001f600 and accents é " * 40,
        'quotes " and backslashes \\ ' * 30,
    ],
)
def test_strings_of_every_length_come_back_exactly(line: str) -> None:
    parser = JavaScriptParser(read_module(ECHO, "echo.js"), LIMITS)
    [entry] = parser.parse_line(line, "T")
    extra = "y" * 300 if line.startswith("pad") else ""
    assert entry["input"] == {"line": line, "nested": [line + extra]}


def test_a_line_with_lone_surrogates_reaches_the_parser_with_replacement_characters() -> None:
    parser = JavaScriptParser(read_module(ECHO, "echo.js"), LIMITS)
    [entry] = parser.parse_line("bad \udcff byte", "T")
    assert entry["input"]["line"] == "bad \ufffd byte"


def test_a_lone_surrogate_made_by_the_parser_comes_back_escaped() -> None:
    source = (
        "export function parseStdoutLine(line, ts) {\n"
        "  return [{ kind: 'stdout', ts, text: '\\ud800' + 'w'.repeat(300) }];\n}\n"
    )
    parser = JavaScriptParser(read_module(source, "x.js"), LIMITS)
    assert parser.parse_line("a", "T")[0]["text"] == "\ud800" + "w" * 300
