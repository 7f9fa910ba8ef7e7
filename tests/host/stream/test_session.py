"""TranscriptSession: chunks to lines, the per-line safety net, validation and bounds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from linewise import LoadedParser, ParserLineError, TranscriptSession, merge_deltas
from linewise_contracts import TranscriptEntry

TS = "2026-01-01T00:00:00.000Z"


class Scripted:
    """A stateful parser whose behaviour per line is chosen by the line's text."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.resets = 0

    def parse_line(self, line: str, ts: str) -> Any:
        self.seen.append(line)
        if line.startswith("raise"):
            raise ValueError(f"cannot parse {line}")
        if line == "none":
            return None
        if line == "tuple":
            return ({"kind": "stdout", "ts": ts, "text": line},)
        if line == "empty":
            return []
        if line == "invalid":
            return [{"kind": "assistant", "ts": ts}]
        if line == "mixed":
            return [
                {"kind": "assistant", "ts": ts, "text": "kept"},
                {"kind": "assistant", "ts": ts, "text": 3},
                {"kind": "tool_call", "ts": ts, "name": "x", "input": {"s": {1}}},
            ]
        if line == "many":
            return [{"kind": "system", "ts": ts, "text": str(i)} for i in range(50)]
        if line == "huge":
            return [{"kind": "assistant", "ts": ts, "text": "x" * 3_000_000}]
        return [{"kind": "assistant", "ts": ts, "text": f"{len(self.seen)}:{line}"}]

    def reset(self) -> None:
        self.resets += 1
        self.seen.clear()


def _session(factory: Callable[[], Any] = Scripted, **options: Any) -> TranscriptSession:
    loaded = LoadedParser(adapter_type="scripted", new_parser=factory, stateful=True)
    return TranscriptSession(loaded, **options)


def _texts(entries: list[TranscriptEntry]) -> list[str]:
    return [str(entry.get("text")) for entry in entries]


# -- lines ----------------------------------------------------------------------------


def test_lines_are_split_on_lf_and_crlf_trimmed_and_blank_ones_skipped() -> None:
    session = _session()
    entries = session.feed("  one \r\ntwo\n\n   \r\nthree", TS)
    assert _texts(entries) == ["1:one", "2:two"]
    assert _texts(session.close()) == ["3:three"]
    d = session.diagnostics
    assert (d.lines, d.blank_lines, d.entries) == (3, 2, 3)
    assert d.accounted and d.clean


def test_partial_line_waits_for_the_rest_and_takes_the_completing_chunks_ts() -> None:
    session = _session()
    assert session.feed('{"a":', "t1") == []
    entries = session.feed(" 1}\nnext", "t2")
    assert entries == [{"kind": "assistant", "ts": "t2", "text": '1:{"a": 1}'}]
    assert session.close() == [{"kind": "assistant", "ts": "t2", "text": "2:next"}]


def test_bytes_are_decoded_incrementally_and_bad_utf8_is_replaced() -> None:
    session = _session()
    data = "é→😀\n".encode()
    entries: list[TranscriptEntry] = []
    for index in range(len(data)):
        entries += session.feed(data[index : index + 1], TS)
    entries += session.feed(b"bad \xff\xfe end\n", TS)
    entries += session.feed(b"cut \xe2\x82", TS)
    entries += session.close()
    assert _texts(entries) == ["1:é→😀", "2:bad \ufffd\ufffd end", "3:cut \ufffd"]


def test_a_utf8_byte_order_mark_at_the_start_is_ignored() -> None:
    session = _session()
    assert _texts(session.feed("\ufeff{}\nx\n", TS)) == ["1:{}", "2:x"]


def test_a_byte_order_mark_mid_stream_does_not_stop_its_line_being_parsed() -> None:
    # Two logs concatenated: the second one's mark opens a line in the middle of the stream.
    session = _session()
    assert _texts(session.feed(b"{}\n\xef\xbb\xbf{}\n", TS)) == ["1:{}", "2:{}"]


@given(
    lines=st.lists(
        st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=20), max_size=8
    ),
    cuts=st.lists(st.integers(min_value=0, max_value=400), max_size=12),
    crlf=st.booleans(),
)
def test_entries_do_not_depend_on_how_bytes_are_chunked(
    lines: list[str], cuts: list[int], crlf: bool
) -> None:
    data = ("\r\n" if crlf else "\n").join(lines).encode()
    whole = _session()
    expected = whole.feed(data, TS) + whole.close()
    chunked = _session()
    got: list[TranscriptEntry] = []
    previous = 0
    for cut in sorted({min(c, len(data)) for c in cuts}):
        got += chunked.feed(data[previous:cut], TS)
        previous = cut
    got += chunked.feed(data[previous:], TS) + chunked.close()
    assert got == expected
    assert chunked.diagnostics.accounted


def test_too_long_lines_are_cut_and_memory_stays_bounded() -> None:
    session = _session(max_line_chars=100)
    out = session.feed("short\n", TS)
    for _ in range(50):  # a 5,000 character line arriving in pieces, never terminated yet
        out += session.feed("y" * 100, TS)
        assert session._reader._pending_chars <= 200
    out += session.feed("tail\nafter\n", TS)
    out += session.close()
    assert _texts(out)[0] == "1:short"
    assert out[1]["kind"] == "stdout"
    assert _texts(out)[1].startswith("y" * 100 + " … [line cut: longer than 100 characters]")
    assert _texts(out)[2] == "2:after"
    d = session.diagnostics
    assert d.truncated_lines == 1
    assert d.truncated_chars >= 4_900
    assert d.accounted


def test_a_complete_line_over_the_bound_is_cut_without_reaching_the_parser() -> None:
    session = _session(max_line_chars=10)
    parser = session._net._parser
    out = session.feed("x" * 25 + "\n", TS)
    assert out[0]["kind"] == "stdout" and out[0]["text"].startswith("x" * 10 + " …")  # type: ignore[typeddict-item]
    assert parser.seen == []


def test_feeding_a_closed_session_is_an_error() -> None:
    session = _session()
    session.close()
    assert session.close() == []
    with pytest.raises(ValueError, match="closed"):
        session.feed("x\n")


def test_feed_line_takes_exactly_one_line() -> None:
    session = _session()
    assert _texts(session.feed_line("  a  ", TS)) == ["1:a"]
    with pytest.raises(ValueError, match="one line"):
        session.feed_line("a\nb", TS)


def test_stderr_and_system_pass_straight_through() -> None:
    session = _session()
    assert session.feed_stderr(b"warn: x\n", "t") == [
        {"kind": "stderr", "ts": "t", "text": "warn: x\n"}
    ]
    assert session.feed_stderr("   ", "t") == []
    assert session.feed_system("run started", "t") == [
        {"kind": "system", "ts": "t", "text": "run started"}
    ]
    assert session.diagnostics.stderr_chunks == 1 and session.diagnostics.system_messages == 1


def test_missing_ts_comes_from_the_clock() -> None:
    session = _session(clock=lambda: "clock-ts")
    assert session.feed("a\n")[0]["ts"] == "clock-ts"


# -- the safety net -------------------------------------------------------------------------


def test_an_exception_falls_back_for_that_line_resets_and_keeps_the_parser() -> None:
    session = _session()
    parser = session._net._parser
    out = session.feed("a\nb\nraise now\nc\n", TS)
    assert out == [
        {"kind": "assistant", "ts": TS, "text": "1:a"},
        {"kind": "assistant", "ts": TS, "text": "2:b"},
        {"kind": "stdout", "ts": TS, "text": "raise now"},
        {"kind": "assistant", "ts": TS, "text": "1:c"},  # state was reset after the error
    ]
    assert parser.resets == 1 and session._net._parser is parser
    d = session.diagnostics
    assert (d.parser_errors, d.fallback_lines) == (1, 1)
    assert d.first_errors[0].line_number == 3
    assert d.first_errors[0].error_type == "ValueError"
    assert d.first_errors[0].message == "cannot parse raise now"
    assert d.accounted


def test_only_the_first_errors_are_kept_but_all_are_counted() -> None:
    session = _session()
    session.feed("".join(f"raise {i}\n" for i in range(20)), TS)
    assert session.diagnostics.parser_errors == 20
    assert len(session.diagnostics.first_errors) == 5


def test_a_parser_whose_reset_fails_is_replaced_by_a_fresh_instance() -> None:
    class BadReset(Scripted):
        def reset(self) -> None:
            raise RuntimeError("reset broken")

    session = _session(BadReset)
    first = session._net._parser
    assert _texts(session.feed("a\nraise\nb\n", TS)) == ["1:a", "raise", "1:b"]
    assert session._net._parser is not first
    assert session.diagnostics.parser_restarts == 1


def test_strict_sessions_raise() -> None:
    session = _session(strict=True)
    with pytest.raises(ParserLineError) as caught:
        session.feed("ok\nraise it\n", TS)
    assert caught.value.line_number == 2
    assert isinstance(caught.value.error, ValueError)


@pytest.mark.parametrize("line", ["none", "tuple"])
def test_results_that_are_not_lists_fall_back(line: str) -> None:
    session = _session()
    assert session.feed(line + "\n", TS) == [{"kind": "stdout", "ts": TS, "text": line}]
    d = session.diagnostics
    assert d.fallback_lines == 1 and d.dropped_entries == 1
    assert any("not a list" in reason for reason in d.drop_reasons)


def test_an_empty_result_is_accounted_as_a_line_without_entries() -> None:
    session = _session()
    assert session.feed("empty\n", TS) == []
    d = session.diagnostics
    assert (d.lines, d.lines_without_entries, d.fallback_lines) == (1, 1, 0)
    assert d.accounted


def test_invalid_entries_are_dropped_with_reasons() -> None:
    session = _session()
    assert session.feed("mixed\n", TS) == [{"kind": "assistant", "ts": TS, "text": "kept"}]
    d = session.diagnostics
    assert d.dropped_entries == 2
    assert d.drop_reasons == {
        "assistant.text must be a str, got int": 1,
        "tool_call.input contains a set, which is not a JSON value": 1,
    }


def test_a_line_with_no_valid_entry_is_shown_raw() -> None:
    session = _session()
    assert session.feed("invalid\n", TS) == [{"kind": "stdout", "ts": TS, "text": "invalid"}]
    assert session.diagnostics.fallback_lines == 1
    assert session.diagnostics.drop_reasons == {"assistant.text is missing": 1}


def test_entries_per_line_are_capped() -> None:
    session = _session(max_entries_per_line=10)
    assert len(session.feed("many\n", TS)) == 10
    assert session.diagnostics.drop_reasons == {"more than 10 entries from one line": 40}


def test_gigantic_output_for_a_short_line_is_dropped() -> None:
    session = _session()
    assert session.feed("huge\n", TS) == [{"kind": "stdout", "ts": TS, "text": "huge"}]
    assert session.diagnostics.drop_reasons == {"entries of one line exceed its output budget": 1}


def test_a_factory_that_fails_at_session_start_falls_back_to_generic() -> None:
    def broken() -> Any:
        raise RuntimeError("no")

    session = _session(broken)
    assert session.feed("a\n", TS) == [{"kind": "stdout", "ts": TS, "text": "a"}]
    assert "could not be created" in (session.diagnostics.fallback_reason or "")


def test_system_exit_in_a_parser_is_contained() -> None:
    class Exits(Scripted):
        def parse_line(self, line: str, ts: str) -> Any:
            raise SystemExit(1)

    session = _session(Exits)
    assert session.feed("x\n", TS) == [{"kind": "stdout", "ts": TS, "text": "x"}]


@given(
    st.lists(
        st.sampled_from(["a", "raise", "none", "empty", "invalid", "mixed", "many", "", " "]),
        max_size=30,
    )
)
def test_every_line_is_accounted_for(lines: list[str]) -> None:
    session = _session(max_entries_per_line=20)
    entries = session.feed("".join(line + "\n" for line in lines), TS) + session.close()
    d = session.diagnostics
    assert d.accounted
    assert d.lines + d.blank_lines == len(lines)
    assert d.entries == len(entries)


# -- deltas ------------------------------------------------------------------------------------


def test_merge_deltas_joins_consecutive_fragments_of_one_kind_only() -> None:
    entries: list[TranscriptEntry] = [
        {"kind": "assistant", "ts": "t1", "text": "Hel", "delta": True},
        {"kind": "assistant", "ts": "t2", "text": "lo", "delta": True},
        {"kind": "thinking", "ts": "t3", "text": "hm", "delta": True},
        {"kind": "assistant", "ts": "t4", "text": " again", "delta": True},
        {"kind": "assistant", "ts": "t5", "text": "whole"},
        {"kind": "assistant", "ts": "t6", "text": "x", "delta": True},
    ]
    original = [dict(e) for e in entries]
    assert merge_deltas(entries) == [
        {"kind": "assistant", "ts": "t1", "text": "Hello", "delta": True},
        {"kind": "thinking", "ts": "t3", "text": "hm", "delta": True},
        {"kind": "assistant", "ts": "t4", "text": " again", "delta": True},
        {"kind": "assistant", "ts": "t5", "text": "whole"},
        {"kind": "assistant", "ts": "t6", "text": "x", "delta": True},
    ]
    assert entries == original


def test_the_rest_of_a_cut_line_is_not_counted_as_a_line() -> None:
    session = _session(max_line_chars=10)
    session.feed("x" * 30, TS)
    session.feed("y" * 5 + "\nnext\n", TS)
    d = session.diagnostics
    assert (d.lines, d.blank_lines, d.truncated_lines) == (2, 0, 1)
    assert d.truncated_chars == 25


class RawEcho:
    """Wants lines exactly as printed, and holds the last one until finish()."""

    raw_lines = True

    def __init__(self) -> None:
        self.held: list[str] = []

    def parse_line(self, line: str, ts: str) -> list[TranscriptEntry]:
        self.held.append(line)
        return [{"kind": "assistant", "ts": ts, "text": line, "delta": True}]

    def finish(self, ts: str) -> list[TranscriptEntry]:
        return [{"kind": "system", "ts": ts, "text": f"finished after {len(self.held)} pieces"}]

    def reset(self) -> None:
        self.held.clear()


def test_a_raw_lines_parser_gets_every_line_as_printed_and_finish_at_the_end() -> None:
    session = _session(RawEcho)
    out = session.feed("  indented\r\n\nlast without newline", TS) + session.close()
    assert _texts(out) == [
        "  indented\r\n",
        "\n",
        "last without newline",
        "finished after 3 pieces",
    ]
    assert session.diagnostics.blank_lines == 0
    assert session.diagnostics.accounted


def test_a_finish_that_raises_or_returns_junk_costs_nothing() -> None:
    class Broken(RawEcho):
        def finish(self, ts: str) -> list[TranscriptEntry]:
            raise RuntimeError("cannot flush")

    session = _session(Broken)
    session.feed("x\n", TS)
    assert session.close() == []
    assert session.diagnostics.first_errors[0].message == "cannot flush"

    class Junk(RawEcho):
        def finish(self, ts: str) -> Any:
            return [{"kind": "nope"}, {"kind": "system", "ts": ts, "text": "ok"}]

    session = _session(Junk)
    assert _texts(session.close()) == ["ok"]
    assert session.diagnostics.drop_reasons == {"unknown kind 'nope'": 1}


def test_a_keyboard_interrupt_subclass_from_a_parser_is_its_failure() -> None:
    """Only a real Ctrl-C (exactly KeyboardInterrupt) stops the session; a subclass is the
    plugin's failure: the line falls back to raw stdout and the session goes on."""

    class Sneaky(KeyboardInterrupt):
        pass

    class Parser:
        def parse_line(self, line: str, ts: str) -> list[Any]:
            if line == "boom":
                raise Sneaky("not a user")
            return [{"kind": "assistant", "ts": ts, "text": line}]

        def reset(self) -> None:
            pass

    loaded = LoadedParser("sneaky", new_parser=Parser, stateful=True)  # type: ignore[arg-type]
    session = TranscriptSession(loaded)
    out = session.feed("a\nboom\nb\n", TS)
    assert [(e["kind"], e.get("text")) for e in out] == [
        ("assistant", "a"),
        ("stdout", "boom"),
        ("assistant", "b"),
    ]
    assert session.diagnostics.parser_errors == 1
