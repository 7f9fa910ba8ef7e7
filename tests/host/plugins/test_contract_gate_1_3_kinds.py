"""Contract 1.3 (Paperclip's 2026 kinds and fields) through the gate, in both directions.

A plugin that needs 1.3 is refused by a 1.2 host with a hint to upgrade
linewise, before any import; a 1.2 plugin keeps loading on the 1.3 host; the
1.3 host accepts every new kind a 1.3 plugin emits; and what a 1.2 host's
validation does with them (the line falls back to raw stdout, nothing lost)
is what the contracts README promises an older consumer.
"""

from __future__ import annotations

import json
import sys

import pytest
from linewise import Registry, build_transcript
from linewise_contracts import CONTRACT_VERSION, entry_problem
from linewise_contracts.entries import KINDS_1_3
from support import VALID_ENTRIES, FakeSite

NEW_KIND_ENTRIES = [entry for entry in VALID_ENTRIES if entry["kind"] in KINDS_1_3]

RUNNER_PLUGIN = f"""
import json
ENTRIES = json.loads({json.dumps(json.dumps(NEW_KIND_ENTRIES))})

def parse_stdout_line(line, ts):
    return [dict(entry, ts=ts) for entry in ENTRIES]
"""


def _install(site: FakeSite) -> None:
    site.add(
        "needs-thirteen",
        entry_points={"needs_thirteen": "needs_thirteen_mod"},
        requires=["linewise-contracts>=1.3,<2"],
        modules={"needs_thirteen_mod": RUNNER_PLUGIN},
    )
    site.add(
        "plain-twelve",
        entry_points={"plain_twelve": "plain_twelve_mod"},
        requires=["linewise-contracts>=1.2,<2"],
        modules={
            "plain_twelve_mod": "def parse_stdout_line(line, ts):\n"
            "    return [{'kind': 'init', 'ts': ts, 'model': 'm', 'sessionId': line,"
            " 'cwd': '/work'}]\n"
        },
    )


def _chunk(text: str) -> list[dict[str, str]]:
    return [{"ts": "2026-01-01T00:00:00Z", "stream": "stdout", "chunk": text}]


def test_the_host_is_at_contract_1_3_or_later() -> None:
    major, minor, _ = (int(part) for part in CONTRACT_VERSION.split("."))
    assert (major, minor) >= (1, 3)


def test_a_1_3_plugin_on_a_1_2_host_is_refused_before_import_with_an_upgrade_hint(
    fake_site: FakeSite,
) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points(), host_contract="1.2.0")
    assert registry.load("needs_thirteen").is_fallback
    assert "needs_thirteen_mod" not in sys.modules
    failure = registry.failed_loads["needs_thirteen"]
    assert failure.stage == "contract"
    assert "upgrade linewise" in failure.hint


@pytest.mark.parametrize("host", ["1.2.0", CONTRACT_VERSION])
def test_a_1_2_plugin_loads_on_the_1_2_and_the_1_3_host(fake_site: FakeSite, host: str) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points(), host_contract=host)
    assert not registry.load("plain_twelve").is_fallback
    transcript = build_transcript(_chunk("abc\n"), "plain_twelve", registry=registry)
    assert [entry["kind"] for entry in transcript.entries] == ["init"]


def test_every_new_kind_of_a_1_3_plugin_survives_the_1_3_host(fake_site: FakeSite) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points())
    assert not registry.load("needs_thirteen").is_fallback
    transcript = build_transcript(_chunk("go\n"), "needs_thirteen", registry=registry)
    assert {entry["kind"] for entry in transcript.entries} == set(KINDS_1_3)
    assert transcript.diagnostics.fallback_lines == 0


def test_on_a_host_whose_validation_does_not_know_them_the_line_is_shown_raw_not_lost(
    fake_site: FakeSite, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What a 1.2 host does with 1.3 entries from a plugin that declared too wide a
    # range: its validation says "unknown kind", and the safety net shows the line
    # through the generic parser (one raw entry, counted as a fallback).
    import linewise.stream.copies
    import linewise.stream.safety

    def validation_1_2(entry: object) -> str | None:
        if isinstance(entry, dict) and entry.get("kind") in KINDS_1_3:
            return f"unknown kind {entry['kind']!r}"
        return entry_problem(entry)

    monkeypatch.setattr(linewise.stream.safety, "entry_problem", validation_1_2)
    monkeypatch.setattr(linewise.stream.copies, "entry_problem", validation_1_2)
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points())
    transcript = build_transcript(
        _chunk("the runner said this\n"), "needs_thirteen", registry=registry
    )
    assert [entry["kind"] for entry in transcript.entries] == ["stdout"]
    assert transcript.entries[0]["text"] == "the runner said this"
    assert transcript.diagnostics.fallback_lines == 1
