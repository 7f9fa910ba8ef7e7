"""The compact style from a format's ``format_entries`` (contract 1.7): the entries are the truth.

A declared format that gives ``format_entries`` is handed the validated entries
of each stdout line, through the guard, and never the raw line; its 1.x
``format_stdout_line`` is then not read. The host draws what no function of one
line's entries may: a line cut for length, a line the generic parser stood in
for, a raw stdout line, streamed fragments. A call that fails is not believed:
that line's entries are drawn by the host's rules, and the failure recorded.
"""

from __future__ import annotations

import io
import logging
from typing import Any

import pytest
from linewise import Registry
from linewise.cli.drawing import build_renderer
from linewise.render import CompactRenderer, FormatterRenderer, create_renderer
from support import TS, Drawn, FakeSite

PLUGIN = """
from linewise_contracts.agent import Agent, Format

SEEN = []


def parse_stdout_line(line, ts):
    verb, _, rest = line.partition(" ")
    if verb == "say":
        return [{"kind": "assistant", "ts": ts, "text": rest}]
    if verb == "call":
        return [{"kind": "tool_call", "ts": ts, "name": rest, "input": {}, "toolUseId": rest}]
    if verb == "frag":
        return [{"kind": "assistant", "ts": ts, "text": rest, "delta": True}]
    if verb == "boom":
        raise ValueError("cannot read it")
    if verb == "quiet":
        return []
    if verb == "invalid":
        return [{"kind": "assistant", "ts": ts}]
    return [{"kind": "stdout", "ts": ts, "text": line}]


def format_entries(entries):
    SEEN.append([dict(entry) for entry in entries])
    texts = [entry.get("text", entry.get("name")) for entry in entries]
    if texts == ["explode"]:
        raise SystemExit("no")
    if texts == ["shout"]:
        return [("shouting", "x")]
    if texts == ["mutate"]:
        entries[0].clear()
        raise ValueError("changed them, then failed")
    return [("assistant" if e["kind"] == "assistant" else "tool", f"<{t}>") for e, t in zip(entries, texts)]


def format_stdout_line(line):
    return [("plain", "FROM THE RAW LINE")]


agent = Agent(
    "ecli",
    label="Entries CLI",
    formats=[
        Format(
            "ecli_local",
            parse_stdout_line=parse_stdout_line,
            format_entries=format_entries,
            format_stdout_line=format_stdout_line,
        )
    ],
)
"""


@pytest.fixture
def registry(fake_site: FakeSite) -> Registry:
    fake_site.add(
        "entries-cli",
        entry_points={"ecli_local": "ecli_mod:agent.ecli_local"},
        requires=["linewise-contracts>=1.7,<2"],
        modules={"ecli_mod": PLUGIN},
    )
    return Registry(entry_points=fake_site.entry_points())


def _seen() -> list[list[dict[str, Any]]]:
    import ecli_mod  # type: ignore[import-not-found]

    seen: list[list[dict[str, Any]]] = ecli_mod.SEEN
    return seen


def _render(registry: Registry, *lines: str, **options: Any) -> tuple[str, FormatterRenderer]:
    out = io.StringIO()
    loaded = registry.load("ecli_local")
    assert loaded.format_entries is not None
    renderer = FormatterRenderer(out, format_entries=loaded.format_entries)
    drawn = Drawn("ecli_local", renderer, registry=registry, **options)
    drawn.feed("".join(f"{line}\n" for line in lines).encode(), TS)
    drawn.close()
    return out.getvalue(), renderer


def test_the_plugins_lines_are_made_from_each_lines_entries_never_the_raw_line(
    registry: Registry,
) -> None:
    shown, renderer = _render(registry, "say hello", "call Read")
    assert shown == "<hello>\n<Read>\n"
    assert _seen() == [
        [{"kind": "assistant", "ts": TS, "text": "hello"}],
        [{"kind": "tool_call", "ts": TS, "name": "Read", "input": {}, "toolUseId": "Read"}],
    ]
    assert renderer.formatter_failures == 0


def test_the_host_draws_what_no_function_of_one_lines_entries_may(registry: Registry) -> None:
    # A raw stdout line, a line the generic parser stood in for (the parser raised), a
    # line cut for length, streamed fragments continued on one line, a line with no entry.
    shown, _ = _render(
        registry,
        "plain words",
        "boom",
        "say " + "x" * 200,
        "frag one,",
        "frag two",
        "quiet",
        max_line_chars=100,
    )
    assert shown.splitlines() == [
        "plain words",
        "boom",
        "say " + "x" * 96 + " … [line cut: longer than 100 characters]",
        "one,two",
    ]
    assert _seen() == []  # format_entries was asked about none of them


def test_a_line_whose_entries_were_refused_is_drawn_by_the_host(registry: Registry) -> None:
    shown, _ = _render(registry, "invalid")
    assert shown == "invalid\n"  # the generic parser's raw entry: never the plugin's to draw
    assert _seen() == []


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("say explode", "raised SystemExit: no"),
        ("say shout", "invalid compact line at index 0"),
        ("say mutate", "raised ValueError: changed them, then failed"),
    ],
)
def test_a_failed_call_falls_back_to_the_hosts_drawing_recorded_and_said_once(
    registry: Registry, caplog: pytest.LogCaptureFixture, line: str, reason: str
) -> None:
    with caplog.at_level(logging.WARNING, logger="linewise"):
        shown, renderer = _render(registry, line, "say fine", line)
    text = line.removeprefix("say ")
    assert shown.splitlines() == [text, "<fine>", text]  # the entry itself, intact
    assert renderer.formatter_failures == 2
    failures = registry.call_failures.of("ecli_local")
    assert [f.call for f in failures] == ["format_entries", "format_entries"]
    assert reason in failures[0].reason
    said = [r.getMessage() for r in caplog.records if "format_entries" in r.getMessage()]
    assert len(said) == 1 and said[0].startswith("ecli_local: format_entries ")


def test_the_compact_style_prefers_format_entries_to_the_raw_line_formatter(
    registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("linewise.cli.drawing.get_registry", lambda: registry)
    out = io.StringIO()
    renderer = build_renderer(out, style="compact", adapter_type="ecli_local")
    assert isinstance(renderer, FormatterRenderer)
    renderer.write_line("say hi", [{"kind": "assistant", "ts": TS, "text": "hi"}])
    renderer.close()
    assert out.getvalue() == "<hi>\n"  # not "FROM THE RAW LINE"


def test_the_renderer_table_takes_format_entries_over_a_formatter() -> None:
    out = io.StringIO()

    def by_entries(entries: Any) -> list[Any]:
        return [("plain", "entries")]

    renderer = create_renderer(
        out, style="compact", formatter=lambda _: [("plain", "line")], format_entries=by_entries
    )
    renderer.write_line("x", [{"kind": "assistant", "ts": TS, "text": "x"}])  # type: ignore[attr-defined]
    renderer.close()
    assert out.getvalue() == "entries\n"
    assert type(create_renderer(out, style="compact")) is CompactRenderer
    with pytest.raises(ValueError, match="needs format_entries or formatter"):
        FormatterRenderer(out)


def test_the_host_still_adds_the_subagent_prefix_and_the_failed_mark() -> None:
    out = io.StringIO()
    renderer = FormatterRenderer(out, format_entries=lambda entries: [("plain", "drawn")])
    task = {
        "kind": "tool_call",
        "ts": TS,
        "name": "Task",
        "toolUseId": "t1",
        "input": {"subagent_type": "Explore"},
        "startsSubagent": True,
    }
    inside = {"kind": "assistant", "ts": TS, "text": "in", "parentToolUseId": "t1"}
    failed = {
        "kind": "result",
        "ts": TS,
        "text": "",
        "inputTokens": 0,
        "outputTokens": 0,
        "cachedTokens": 0,
        "costUsd": 0,
        "subtype": "error_max_turns",
        "isError": True,
        "errors": [],
    }
    for entry in (task, inside, failed):
        renderer.write_line("line", [entry])  # type: ignore[list-item]
    renderer.close()
    assert out.getvalue().splitlines() == [
        "drawn",
        "⤷ Explore · drawn",
        "drawn",
        "[failed: error_max_turns]",
    ]


LOOSE = """
def parse_stdout_line(line, ts):
    return [{"kind": "assistant", "ts": ts, "text": line}]


def format_entries(entries):
    return [("plain", "A LOOSE ATTRIBUTE")]


def format_stdout_line(line):
    return [("assistant", "line: " + line)]
"""


def test_a_1x_modules_loose_format_entries_is_not_read(fake_site: FakeSite) -> None:
    fake_site.add(
        "loose-cli",
        entry_points={"loose": "loose_mod"},
        requires=["linewise-contracts>=1.1,<2"],
        modules={"loose_mod": LOOSE},
    )
    loaded = Registry(entry_points=fake_site.entry_points()).load("loose")
    assert loaded.format_entries is None
    assert loaded.format_stdout_line is not None
    assert loaded.format_stdout_line("hi") == [("assistant", "line: hi")]
