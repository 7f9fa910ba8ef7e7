"""The safe extraction helpers return typed values or fallbacks, never raise."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from linewise_contracts.extract import (
    as_bool,
    as_int,
    as_list,
    as_number,
    as_object,
    as_string,
    as_string_list,
    content_text,
    dig,
    first_line,
    parse_json_object,
    strip_ansi,
    to_json_text,
    truncate,
)


def test_typed_access_returns_the_value_or_the_fallback() -> None:
    assert as_string("a") == "a"
    assert as_string(1, "none") == "none"
    assert as_number(2.5) == 2.5
    assert as_number(True, -1) == -1  # a bool is not a number
    assert as_number(math.nan, 0) == 0
    assert as_number("3", 0) == 0  # no coercion from text
    assert as_int(3.0) == 3
    assert as_int(3.5, -1) == -1
    assert as_bool(True) is True
    assert as_bool(1) is False
    assert as_object({"a": 1}) == {"a": 1}
    assert as_object([1]) == {}
    assert as_list((1,)) == []
    assert as_string_list(["a", 1, "b"]) == ["a", "b"]


def test_dig_follows_keys_and_indexes_and_stops_where_the_shape_breaks() -> None:
    event = {"message": {"content": [{"text": "hi"}]}}
    assert dig(event, "message", "content", 0, "text") == "hi"
    assert dig(event, "message", "content", -1, "text") == "hi"
    assert dig(event, "message", "content", 5) is None
    assert dig(event, "message", "missing", "x") is None
    assert dig("text", "a") is None
    assert dig([1], "a") is None


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ('{"type":"x"}', {"type": "x"}),
        ('  {"a":1}  ', {"a": 1}),
        ("[1,2]", None),
        ('"text"', None),
        ("plain text", None),
        ("{broken", None),
        ('{"a":NaN}', None),
        ("", None),
        # Beyond 64 bits a number becomes a float, as JSON.parse does in the reference.
        ('{"n":123456789012345678901234567890}', {"n": 1.2345678901234568e29}),
        ('{"s":"\\ud800"}', {"s": "\ud800"}),
    ],
)
def test_parse_json_object(line: str, expected: object) -> None:
    assert parse_json_object(line) == expected


def test_parse_json_object_survives_deep_nesting() -> None:
    assert parse_json_object('{"a":' + "[" * 100_000 + "]" * 100_000 + "}") is None


@given(st.text(max_size=200))
def test_parse_json_object_never_raises(line: str) -> None:
    result = parse_json_object(line)
    assert result is None or isinstance(result, dict)


def test_content_text_flattens_blocks() -> None:
    assert content_text("plain") == "plain"
    assert content_text(None) == ""
    assert content_text([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]) == "a\nb"
    assert (
        content_text([{"type": "image", "source": {"type": "base64", "media_type": "image/png"}}])
        == "[image: image/png]"
    )
    assert (
        content_text([{"type": "tool_reference", "tool_name": "Read"}]) == "[tool reference: Read]"
    )
    assert content_text([{"type": "weird", "n": 1}]) == '{"type":"weird","n":1}'
    assert content_text([{"type": "x", "content": [{"type": "text", "text": "in"}]}]) == "in"
    assert content_text(["a", None, "b"], separator="") == "ab"


def test_truncate_and_first_line() -> None:
    assert truncate("abcdef", 3) == "abc…"
    assert truncate("abc", 3) == "abc"
    assert first_line("\n  \n  first \nsecond") == "first"
    assert first_line(" \n\t") == ""


def test_strip_ansi_removes_escape_sequences_only() -> None:
    text = "\x1b[31mred\x1b[0m \x1b]0;title\x07ok \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\ done"
    assert strip_ansi(text) == "red ok link done"
    assert strip_ansi("no escapes") == "no escapes"


def test_to_json_text_matches_json_stringify_layout() -> None:
    assert to_json_text({"command": "ls -1"}, pretty=True) == '{\n  "command": "ls -1"\n}'
    assert to_json_text({"a": [1, 2]}) == '{"a":[1,2]}'
    assert to_json_text({"big": 2**70}) == '{"big":1180591620717411303424}'
    assert to_json_text({"x": {1, 2}}).startswith('{"x":')


def test_to_json_text_never_raises_on_deep_or_circular_values() -> None:
    deep: list[object] = []
    for _ in range(5000):
        deep = [deep]
    assert to_json_text(deep) == "<list nested too deeply to show>"
    loop: dict[str, object] = {}
    loop["self"] = loop
    assert to_json_text(loop, pretty=True) == "<dict nested too deeply to show>"


def test_json_or_placeholder_keeps_plain_values_and_names_the_rest() -> None:
    from linewise_contracts.extract import json_or_placeholder

    assert json_or_placeholder({"a": [1, "b"]}) == {"a": [1, "b"]}
    deep: object = 1
    for _ in range(600):
        deep = {"x": deep}
    assert json_or_placeholder(deep) == "(input not shown: it is nested deeper than 512 levels)"
    assert json_or_placeholder({1, 2}, "value") == (
        "(value not shown: it contains a set, which is not a JSON value)"
    )


def test_diff_entries_classify_by_position_in_the_hunk() -> None:
    from linewise_contracts.extract import diff_entries

    diff = "\n".join(
        [
            "diff --git a/notes.md b/notes.md",
            "--- a/notes.md",
            "+++ b/notes.md",
            "@@ -1,3 +1,3 @@",
            " # Notes",
            "---- old rule",  # a removed line that looks like a header
            "+++ new rule",  # an added line that looks like a header
            " end",
            "\\ No newline at end of file",
            "--- a/other.md",
            "+++ b/other.md",
            "@@ -0,0 +1 @@",
            "+created",
        ]
    )
    kinds = [entry["changeType"] for entry in diff_entries(diff, "T")]
    assert kinds == [
        "file_header", "file_header", "file_header", "hunk", "context", "remove", "add",
        "context", "context", "file_header", "file_header", "hunk", "add",
    ]  # fmt: skip
    cut = diff_entries(diff, "T", limit=4, more="more lines")
    assert cut[-1] == {
        "kind": "diff",
        "ts": "T",
        "changeType": "truncation",
        "text": "… 9 more lines",
    }


def test_pretty_json_of_a_deeply_nested_value_does_not_balloon() -> None:
    deep: object = "x"
    for _ in range(200):
        deep = {"k": deep}
    compact = to_json_text(deep)
    assert to_json_text(deep, pretty=True) == compact
    assert to_json_text({"a": [1, 2]}, pretty=True) == '{\n  "a": [\n    1,\n    2\n  ]\n}'


def test_pretty_text_of_a_value_deeper_than_orjson_goes_does_not_balloon() -> None:
    # orjson stops at 255 levels; the stdlib fallback must keep the same growth rule.
    value: object = {"x": 1}
    for _ in range(400):
        value = {"x": [value]}
    compact = to_json_text(value)
    pretty = to_json_text(value, pretty=True)
    assert len(pretty) <= max(16 * 1024, 4 * len(compact))
    assert json.loads(pretty) == json.loads(compact)
