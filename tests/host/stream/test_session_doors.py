"""The session's one door in (receive), its one door out (the sink), and a Ctrl-C between."""

from __future__ import annotations

from typing import Any

import pytest
from linewise import LoadedParser, TranscriptSession
from linewise_contracts import TranscriptEntry

TS = "2026-01-01T00:00:00.000Z"


class Echo:
    """Each line an assistant entry; the line ``stop`` raises a real Ctrl-C the first time."""

    def __init__(self) -> None:
        self.stopped = False

    def parse_line(self, line: str, ts: str) -> list[Any]:
        if line == "stop" and not self.stopped:
            self.stopped = True
            raise KeyboardInterrupt
        return [{"kind": "assistant", "ts": ts, "text": line}]

    def reset(self) -> None:
        pass


def _session(**options: Any) -> TranscriptSession:
    loaded = LoadedParser(adapter_type="echo", new_parser=Echo, stateful=True)
    return TranscriptSession(loaded, **options)


def _texts(entries: list[TranscriptEntry]) -> list[tuple[str, str]]:
    return [(entry["kind"], str(entry.get("text"))) for entry in entries]


def test_receive_takes_each_stream_and_the_old_doors_are_the_same_door() -> None:
    by_receive, by_feed = _session(), _session()
    got = [
        *by_receive.receive("stdout", b"one\ntw", TS),
        *by_receive.receive("stderr", b"careful\n", TS),
        *by_receive.receive("stdout", "o\n", TS),
        *by_receive.receive("system", "linewise: started", TS),
        *by_receive.close(),
    ]
    same = [
        *by_feed.feed(b"one\ntw", TS),
        *by_feed.feed_stderr(b"careful\n", TS),
        *by_feed.feed("o\n", TS),
        *by_feed.feed_system("linewise: started", TS),
        *by_feed.close(),
    ]
    assert _texts(got) == [
        ("assistant", "one"),
        ("stderr", "careful\n"),
        ("assistant", "two"),
        ("system", "linewise: started"),
    ]
    assert got == same
    assert by_receive.diagnostics == by_feed.diagnostics


def test_an_unknown_stream_is_refused_by_name() -> None:
    session = _session()
    with pytest.raises(
        ValueError, match="unknown stream 'stdin'; expected stdout, stderr or system"
    ):
        session.receive("stdin", "x\n", TS)  # type: ignore[arg-type]


def test_with_a_sink_every_entry_leaves_through_it_in_order_and_calls_return_nothing() -> None:
    seen: list[tuple[str | None, list[tuple[str, str]]]] = []
    session = _session(sink=lambda line, entries: seen.append((line, _texts(entries))))
    assert session.receive("stdout", "a\n\nb\nc", TS) == []
    assert session.receive("stderr", "oops", TS) == []
    assert session.close() == []
    assert seen == [
        ("a", [("assistant", "a")]),
        ("b", [("assistant", "b")]),
        (None, [("stderr", "oops")]),
        ("c", [("assistant", "c")]),
    ]


def test_after_a_ctrl_c_in_the_parser_the_next_call_gives_what_the_interrupted_one_made() -> None:
    """Nothing is lost or given twice: the line parsed before the Ctrl-C, then the
    interrupted line and those after it, parsed when the session is called again."""
    session = _session()
    with pytest.raises(KeyboardInterrupt):
        session.receive("stdout", "a\nstop\nb\n", TS)
    assert _texts(session.receive("stdout", "c\n", TS)) == [
        ("assistant", "a"),
        ("assistant", "stop"),
        ("assistant", "b"),
        ("assistant", "c"),
    ]
    assert session.diagnostics.lines == 4


def test_stop_parsing_hands_out_what_was_made_and_counts_the_lines_left_unparsed() -> None:
    session = _session()
    with pytest.raises(KeyboardInterrupt):
        session.receive("stdout", "a\nstop\n\nb\n", TS)
    entries, skipped = session.stop_parsing()
    assert _texts(entries) == [("assistant", "a")]
    assert skipped == 2  # "stop" and "b"; the blank line between them is no line
    assert _texts(session.close()) == []


def test_with_a_sink_a_ctrl_c_gives_each_line_once() -> None:
    seen: list[str | None] = []
    session = _session(sink=lambda line, entries: seen.append(line))
    with pytest.raises(KeyboardInterrupt):
        session.receive("stdout", "a\nstop\nb\n", TS)
    session.receive("stdout", "c\n", TS)
    assert seen == ["a", "stop", "b", "c"]


class Batching(Echo):
    """A parser with a batch door: one call for a chunk's lines."""

    calls: list[list[str]]

    def __init__(self) -> None:
        super().__init__()
        self.calls = []

    def parse_batch(self, lines: list[str], ts: str) -> Any:
        self.calls.append(list(lines))
        return iter([self.parse_line(line, ts) for line in lines])


@pytest.mark.parametrize("isolated", [True, False])
def test_only_the_hosts_isolation_gets_the_batch_door(isolated: bool) -> None:
    """A plugin's own parser with a ``parse_batch`` attribute is parsed line by line;
    the batch door is used only for a parser the host's isolation loaded."""
    made: list[Batching] = []

    def factory() -> Batching:
        made.append(Batching())
        return made[-1]

    loaded = LoadedParser("batching", new_parser=factory, stateful=True, isolated=isolated)
    session = TranscriptSession(loaded)
    assert _texts(session.receive("stdout", "a\n\nb\n", TS)) == [
        ("assistant", "a"),
        ("assistant", "b"),
    ]
    assert made[0].calls == ([["a", "b"]] if isolated else [])
    assert session.diagnostics.lines == 2 and session.diagnostics.blank_lines == 1
