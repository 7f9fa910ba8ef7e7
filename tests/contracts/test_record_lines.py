"""record_lines and read_document: a plugin reads store files with every record bounded."""

from __future__ import annotations

from pathlib import Path

import pytest
from linewise_contracts.sessions import (
    MAX_DOCUMENT_CHARS,
    MAX_RECORD_CHARS,
    read_document,
    record_lines,
)


def _file(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "records.jsonl"
    path.write_bytes(data)
    return path


def test_lines_come_without_their_ends_and_blank_lines_are_left_out(tmp_path: Path) -> None:
    path = _file(tmp_path, b'{"a": 1}\r\n\n   \n{"b": "\xff"}\nlast')
    assert list(record_lines(path)) == ['{"a": 1}', '{"b": "\ufffd"}', "last"]


@pytest.mark.parametrize(
    ("data", "lines"),
    [
        (b"aaaaa\nbbbbb", ["aaaaa", "bbbbb"]),  # at the bound: whole
        (b"aaaaa\r\nb", ["aaaaa", "b"]),  # at the bound with CRLF: whole
        (b"aaaaaa\nb", ["aaaaaa", "b"]),  # one over: one over, so the host cuts it
        (b"a" * 100 + b"\nafter\n", ["aaaaaa", "after"]),  # the rest is skipped
        (b"a" * 100, ["aaaaaa"]),  # no newline at the end
    ],
)
def test_a_line_past_the_bound_comes_one_character_over_it(
    tmp_path: Path, data: bytes, lines: list[str]
) -> None:
    assert list(record_lines(_file(tmp_path, data), max_chars=5)) == lines


def test_a_huge_line_is_skipped_as_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    with path.open("w", encoding="utf-8") as handle:
        handle.write("x" * (3 * MAX_RECORD_CHARS))
        handle.write("\nnext\n")
    assert [len(line) for line in record_lines(path)] == [MAX_RECORD_CHARS + 1, 4]


def test_a_document_is_read_whole_up_to_its_bound_and_not_past_it(tmp_path: Path) -> None:
    path = _file(tmp_path, b'{"messages": []}')
    assert read_document(path) == '{"messages": []}'
    assert read_document(path, max_chars=16) == '{"messages": []}'
    assert read_document(path, max_chars=15) is None
    assert MAX_DOCUMENT_CHARS >= MAX_RECORD_CHARS


def test_a_bound_below_one_is_a_mistake(tmp_path: Path) -> None:
    path = _file(tmp_path, b"x")
    with pytest.raises(ValueError, match="at least 1"):
        list(record_lines(path, max_chars=0))
    with pytest.raises(ValueError, match="at least 1"):
        read_document(path, max_chars=0)
