"""The helpers plugins share since contract 1.1: raw stdout, error text, id memory, times, parents."""

from __future__ import annotations

import time
from datetime import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st
from linewise_contracts import entry_problem
from linewise_contracts.extract import (
    BoundedMap,
    as_int,
    as_number,
    error_text,
    iso_timestamp,
    stdout_entries,
    with_parent,
)
from linewise_contracts.validation import MAX_INT

TS = "2026-03-29T00:00:00.000Z"


def test_stdout_entries_is_the_raw_fallback_entry() -> None:
    assert stdout_entries("garbage {", TS) == [{"kind": "stdout", "ts": TS, "text": "garbage {"}]
    assert entry_problem(stdout_entries("", TS)[0]) is None


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("plain", "plain"),
        (None, ""),
        ({"message": "boom", "code": "E1"}, "boom"),
        ({"message": "", "error": "denied"}, "denied"),
        ({"code": 5, "detail": "late"}, "late"),
        ({"status": 500}, '{"status":500}'),
        ([1, "a"], '[1,"a"]'),
        (42, "42"),
    ],
)
def test_error_text_reads_the_usual_fields_then_falls_back_to_json(
    value: object, expected: str
) -> None:
    assert error_text(value) == expected


def test_error_text_takes_other_keys_when_asked() -> None:
    assert error_text({"reason": "quota", "message": "m"}, keys=("reason",)) == "quota"


def test_error_text_never_raises_on_hostile_values() -> None:
    looped: list[object] = []
    looped.append(looped)
    assert isinstance(error_text(looped), str)
    assert isinstance(error_text({"message": 10**400}), str)


def test_bounded_map_forgets_the_oldest_key_past_its_limit() -> None:
    memory: BoundedMap[str, int] = BoundedMap(3)
    for index, key in enumerate("abcd"):
        memory[key] = index
    assert "a" not in memory
    assert [memory["b"], memory["c"], memory["d"]] == [1, 2, 3]
    assert len(memory) == 3
    memory["b"] = 10  # rewriting a key makes it the newest
    memory["e"] = 4
    assert "c" not in memory
    assert memory.get("b") == 10
    assert memory.get("zzz") is None
    assert memory.pop("b") == 10
    assert memory.pop("b", -1) == -1
    memory.clear()
    assert len(memory) == 0
    with pytest.raises(ValueError, match="at least 1"):
        BoundedMap(0)


def _fill(count: int) -> float:
    memory: BoundedMap[int, int] = BoundedMap(64)
    started = time.perf_counter()
    for index in range(count):
        memory[index] = index
    return time.perf_counter() - started


def test_bounded_map_insertion_cost_does_not_grow_with_the_ids_seen() -> None:
    small = min(_fill(20_000) for _ in range(3))
    large = min(_fill(80_000) for _ in range(3))
    assert large / small < 4 * 2.5  # linear in the number of insertions, not quadratic


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2026-11-22T10:00:00Z", "2026-11-22T10:00:00.000Z"),
        ("2026-11-22T10:00:00.123456Z", "2026-11-22T10:00:00.123Z"),
        ("2026-11-22T10:00:00.5+02:00", "2026-11-22T08:00:00.500Z"),
        ("2026-11-22T10:00:00-0530", "2026-11-22T15:30:00.000Z"),
        ("2026-11-22 10:00", "2026-11-22T10:00:00.000Z"),
        (" 2026-11-22T10:00:00,25Z ", "2026-11-22T10:00:00.250Z"),
        ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00.000Z"),
        (1_795_000_000, "2026-11-18T11:06:40.000Z"),
        (1_795_000_000_123, "2026-11-18T11:06:40.123Z"),
        (1_795_000_000.5, "2026-11-18T11:06:40.500Z"),
    ],
)
def test_iso_timestamp_normalises_to_utc_with_milliseconds(value: object, expected: str) -> None:
    assert iso_timestamp(value) == expected


@pytest.mark.parametrize(
    "value",
    [
        None,
        True,
        "yesterday",
        "2026-13-01T00:00:00Z",
        "2026-11-22T25:00:00Z",
        "0001-01-01T00:00:00+01:00",  # before year 1 once in UTC
        "2026-11-22T10:00:00Z" + " " * 100,
        float("nan"),
        float("inf"),
        10**400,
        -5,
        12,  # 1970: not an epoch a CLI of this century writes
        [1_795_000_000],
    ],
)
def test_iso_timestamp_gives_none_for_anything_else(value: object) -> None:
    assert iso_timestamp(value) is None


@given(st.one_of(st.text(max_size=60), st.integers(), st.floats(), st.none()))
def test_iso_timestamp_never_raises_and_gives_the_one_format(value: object) -> None:
    out = iso_timestamp(value)
    if out is not None:
        assert len(out) == 24 and out.endswith("Z") and out[10] == "T" and out[19] == "."
        assert iso_timestamp(out) == out  # already normal: unchanged


def test_with_parent_marks_every_entry_and_none_leaves_the_main_thread() -> None:
    entries = stdout_entries("a", TS) + stdout_entries("b", TS)
    assert with_parent(entries, "toolu_1") is entries
    assert all(entry.get("parentToolUseId") == "toolu_1" for entry in entries)
    assert all(entry_problem(entry) is None for entry in entries)
    main = stdout_entries("c", TS)
    assert with_parent(main, None) == [{"kind": "stdout", "ts": TS, "text": "c"}]
    assert with_parent(main, "") == [{"kind": "stdout", "ts": TS, "text": "c"}]


@pytest.mark.parametrize("huge", [10**400, -(10**400), MAX_INT + 1])
def test_number_helpers_turn_ints_beyond_float_range_into_the_fallback(huge: int) -> None:
    assert as_number(huge) == 0
    assert as_number(huge, -1.0) == -1.0
    assert as_int(huge) == 0
    assert as_int(huge, 7) == 7
    assert as_number(MAX_INT) == MAX_INT
    assert as_int(-MAX_INT) == -MAX_INT


@given(st.datetimes(timezones=st.none()))
def test_a_timestamp_already_in_the_contract_form_comes_back_as_it_is(moment: datetime) -> None:
    from linewise_contracts.extract import _normalised_timestamp

    text = (
        f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}T{moment.hour:02d}:"
        f"{moment.minute:02d}:{moment.second:02d}.{moment.microsecond // 1000:03d}Z"
    )
    assert iso_timestamp(text) == _normalised_timestamp(text) == text


@given(
    st.text(alphabet="0123456789-:TZ.+ ٣x", min_size=24, max_size=24)
    | st.sampled_from(
        [
            "2026-02-30T10:00:00.000Z",
            "2026-11-22T24:00:00.000Z",
            "0000-01-01T00:00:00.000Z",
            "2026-11-22T10:00:60.000Z",
            "2026-11-22T10:00:00.00٣Z",
            "2026-11-22T10:00:00.000z",
        ]
    )
)
def test_the_shortcut_for_contract_form_timestamps_agrees_with_the_long_way(text: str) -> None:
    from linewise_contracts.extract import _normalised_timestamp

    assert iso_timestamp(text) == _normalised_timestamp(text)
