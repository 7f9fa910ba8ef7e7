"""Contract 1.2 (session stores, ``init.cwd``) through the gate, in both directions.

A plugin that needs 1.2 is refused by a 1.1 host with a hint to upgrade
linewise, before any import; a 1.1 plugin keeps loading on the 1.2 host; and
the 1.2 host accepts what a 1.2 plugin emits (an ``init`` entry with ``cwd``).
"""

from __future__ import annotations

import sys

import pytest
from linewise import Registry, build_transcript
from linewise_contracts import CONTRACT_VERSION, entry_problem
from support import FakeSite

SESSION_PLUGIN = """
from pathlib import Path
from linewise_contracts.sessions import SessionStore

def parse_stdout_line(line, ts):
    return [{"kind": "init", "ts": ts, "model": "m", "sessionId": line, "cwd": "/work"}]

def session_stores(environ, home):
    return [SessionStore("demo", home / ".demo", ("*.jsonl",))]
"""


def _install(site: FakeSite) -> None:
    site.add(
        "needs-twelve",
        entry_points={"needs_twelve": "needs_twelve_mod"},
        requires=["linewise-contracts>=1.2,<2"],
        modules={"needs_twelve_mod": SESSION_PLUGIN},
    )
    site.add(
        "plain-eleven",
        entry_points={"plain_eleven": "plain_eleven_mod"},
        requires=["linewise-contracts>=1.1,<2"],
        modules={
            "plain_eleven_mod": "def parse_stdout_line(line, ts):\n"
            "    return [{'kind': 'assistant', 'ts': ts, 'text': line}]\n"
        },
    )


def test_the_host_is_at_contract_1_2_or_a_later_1_x() -> None:
    major, minor = (int(part) for part in CONTRACT_VERSION.split(".")[:2])
    assert major == 1
    assert minor >= 2


def test_a_1_2_plugin_on_a_1_1_host_is_refused_before_import(fake_site: FakeSite) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points(), host_contract="1.1.0")
    assert registry.load("needs_twelve").is_fallback
    assert "needs_twelve_mod" not in sys.modules
    failure = registry.failed_loads["needs_twelve"]
    assert failure.stage == "contract"
    assert "upgrade linewise" in failure.hint


@pytest.mark.parametrize("host", ["1.1.0", CONTRACT_VERSION])
def test_a_1_1_plugin_loads_on_the_1_1_and_the_1_2_host(fake_site: FakeSite, host: str) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points(), host_contract=host)
    assert not registry.load("plain_eleven").is_fallback


def test_a_1_2_plugin_loads_on_the_1_2_host_and_its_cwd_survives_validation(
    fake_site: FakeSite,
) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points())
    assert not registry.load("needs_twelve").is_fallback
    transcript = build_transcript(
        [{"ts": "2026-01-01T00:00:00Z", "stream": "stdout", "chunk": "abc\n"}],
        "needs_twelve",
        registry=registry,
    )
    [init] = [entry for entry in transcript.entries if entry["kind"] == "init"]
    assert init["cwd"] == "/work"
    assert init["sessionId"] == "abc"


def test_cwd_must_be_a_string() -> None:
    init = {"kind": "init", "ts": "t", "model": "m", "sessionId": "s"}
    assert entry_problem({**init, "cwd": "/home/me/project"}) is None
    assert entry_problem({**init, "cwd": 7}) is not None
    assert entry_problem({**init, "cwd": None}) is not None
