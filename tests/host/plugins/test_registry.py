"""Discovery, the contract gate, failed loads, duplicates and disabling, end to end on fake distributions."""

from __future__ import annotations

import logging
import sys
from typing import Any

import pytest
from linewise import (
    FailedLoad,
    ParserInfo,
    ParserStatus,
    PluginLoadError,
    Registry,
    UnknownAdapterError,
    get_registry,
    open_session,
)
from linewise.hookspecs import hookimpl
from linewise_contracts import CONTRACT_VERSION
from support import FakeSite

TS = "2026-01-01T00:00:00.000Z"

ECHO = """
label = "Echo agent"
models = [{"id": "echo-1", "label": "Echo One"}]
agent_configuration_doc = "Use when: testing."

def parse_stdout_line(line, ts):
    return [{"kind": "assistant", "ts": ts, "text": line.upper()}]
"""

COUNTING = """
import builtins
builtins.__dict__.setdefault("_linewise_imports", []).append(__name__)

def parse_stdout_line(line, ts):
    return [{"kind": "assistant", "ts": ts, "text": line}]
"""

STATEFUL = """
def parse_stdout_line(line, ts):
    return [{"kind": "stdout", "ts": ts, "text": "static:" + line}]

class Parser:
    def __init__(self):
        self.count = 0

    def parse_line(self, line, ts):
        self.count += 1
        return [{"kind": "assistant", "ts": ts, "text": f"{self.count}:{line}"}]

    def reset(self):
        self.count = 0

def create_stdout_parser():
    return Parser()
"""


def _registry(site: FakeSite, **options: Any) -> Registry:
    return Registry(entry_points=site.entry_points(), **options)


def _by_type(registry: Registry) -> dict[str, ParserInfo]:
    return {info.adapter_type: info for info in registry.parsers() if not info.builtin}


def _texts(registry: Registry, adapter_type: str, *lines: str) -> list[str]:
    session = open_session(adapter_type, registry=registry)
    entries = [e for line in lines for e in session.feed_line(line, TS)]
    return [e.get("text", "") for e in entries]  # type: ignore[misc]


# -- discovery ---------------------------------------------------------------------


def test_listing_imports_no_plugin_code(fake_site: FakeSite) -> None:
    fake_site.add(
        "bomb-parser",
        entry_points={"bomb": "bomb_mod"},
        requires=["linewise-contracts>=1,<2"],
        modules={"bomb_mod": "raise RuntimeError('imported!')\n"},
        summary="Bomb",
    )
    infos = _by_type(_registry(fake_site))
    assert infos["bomb"].status is ParserStatus.AVAILABLE
    assert infos["bomb"].distribution == "bomb-parser"
    assert infos["bomb"].version == "1.0.0"
    assert infos["bomb"].contract == ">=1,<2"
    assert infos["bomb"].label == "Bomb"
    assert "bomb_mod" not in sys.modules


def test_plugin_is_imported_on_first_use_only_and_once(fake_site: FakeSite) -> None:
    import builtins

    fake_site.add(
        "count-parser", entry_points={"counted": "counted_mod"}, modules={"counted_mod": COUNTING}
    )
    builtins.__dict__.pop("_linewise_imports", None)
    registry = _registry(fake_site)
    registry.parsers()
    assert "counted_mod" not in sys.modules
    assert _texts(registry, "counted", "a") == ["a"]
    assert _texts(registry, "counted", "b") == ["b"]
    assert builtins.__dict__.pop("_linewise_imports") == ["counted_mod"]
    assert registry.info("counted").status is ParserStatus.LOADED


def test_the_process_registry_scans_entry_points_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from linewise.plugins import discovery

    monkeypatch.setenv("LINEWISE_CACHE_DIR", "")  # no cache: the scan itself is counted
    calls: list[str] = []
    real = discovery.installed_entry_points

    def counting(group: str = "linewise.parsers") -> Any:
        calls.append(group)
        return real(group)

    monkeypatch.setattr(discovery, "installed_entry_points", counting)
    registry = get_registry()
    registry.parsers()
    registry.parsers()
    registry.load("process")
    assert get_registry() is registry
    assert calls == ["linewise.parsers"]


def test_metadata_of_a_loaded_plugin(fake_site: FakeSite) -> None:
    fake_site.add("echo-parser", entry_points={"echo": "echo_mod"}, modules={"echo_mod": ECHO})
    loaded = _registry(fake_site).load("echo")
    assert loaded.label == "Echo agent"
    assert loaded.models == ({"id": "echo-1", "label": "Echo One"},)
    assert loaded.agent_configuration_doc == "Use when: testing."
    assert not loaded.is_fallback


def test_entry_point_may_name_an_object(fake_site: FakeSite) -> None:
    fake_site.add(
        "obj-parser",
        entry_points={"obj": "obj_mod:PLUGIN"},
        modules={
            "obj_mod": """
            class _Plugin:
                label = "Object plugin"
                @staticmethod
                def parse_stdout_line(line, ts):
                    return [{"kind": "system", "ts": ts, "text": line}]
            PLUGIN = _Plugin()
            """
        },
    )
    registry = _registry(fake_site)
    assert _texts(registry, "obj", "x") == ["x"]
    assert registry.load("obj").label == "Object plugin"


def test_unknown_adapter_type_is_an_error_naming_what_is_installed(fake_site: FakeSite) -> None:
    fake_site.add("echo-parser", entry_points={"echo": "echo_mod"}, modules={"echo_mod": ECHO})
    with pytest.raises(UnknownAdapterError) as caught:
        _registry(fake_site).load("nope")
    assert "echo" in str(caught.value) and "process" in str(caught.value)


def test_a_mistyped_adapter_type_gets_did_you_mean(fake_site: FakeSite) -> None:
    fake_site.add(
        "echo-parser", entry_points={"echo_local": "echo_mod"}, modules={"echo_mod": ECHO}
    )
    registry = _registry(fake_site)
    with pytest.raises(UnknownAdapterError, match=r"Did you mean 'echo_local'\?"):
        registry.load("echo_locl")
    with pytest.raises(UnknownAdapterError, match=r"Did you mean 'echo_local'\?"):
        registry.info("ecko_local")


def test_a_first_party_adapter_type_not_installed_names_its_distribution(
    fake_site: FakeSite,
) -> None:
    registry = _registry(fake_site)  # no codex plugin in this registry
    with pytest.raises(UnknownAdapterError) as caught:
        registry.load("codex_local")
    assert "it comes with linewise-codex (pip install linewise-codex)" in str(caught.value)
    with pytest.raises(UnknownAdapterError) as caught:
        registry.load("codex_locl")  # a typo of one that is not installed either
    assert "Did you mean 'codex_local' (pip install linewise-codex)?" in str(caught.value)


def test_the_first_party_table_matches_the_plugins_entry_points() -> None:
    import tomllib
    from pathlib import Path

    from linewise.plugins.suggest import FIRST_PARTY

    declared: dict[str, str] = {}
    for pyproject in Path(__file__).parents[3].glob("plugins/*/pyproject.toml"):
        project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
        for adapter_type in project.get("entry-points", {}).get("linewise.parsers", {}):
            declared[adapter_type] = project["name"]
    assert dict(FIRST_PARTY) == declared


def test_the_cli_suggests_too(fake_site: FakeSite, capsys: pytest.CaptureFixture[str]) -> None:
    from linewise.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["doctor", "claude_locl"])
    assert exit_.value.code == 2
    assert "Did you mean 'claude_local'?" in capsys.readouterr().err


# -- the stateful factory ------------------------------------------------------------


def test_factory_wins_over_static_with_a_fresh_instance_per_transcript(fake_site: FakeSite) -> None:
    fake_site.add(
        "state-parser", entry_points={"stateful": "state_mod"}, modules={"state_mod": STATEFUL}
    )
    registry = _registry(fake_site)
    assert registry.load("stateful").stateful
    assert _texts(registry, "stateful", "a", "b") == ["1:a", "2:b"]
    assert _texts(registry, "stateful", "c") == ["1:c"]


# -- the contract gate ------------------------------------------------------------------


def test_incompatible_major_warns_and_falls_back_to_generic(
    fake_site: FakeSite, caplog: pytest.LogCaptureFixture
) -> None:
    fake_site.add(
        "future-parser",
        version="3.1.0",
        entry_points={"future": "future_mod"},
        requires=["linewise-contracts>=2,<3"],
        modules={"future_mod": ECHO},
    )
    registry = _registry(fake_site)
    assert _by_type(registry)["future"].status is ParserStatus.INCOMPATIBLE
    with caplog.at_level(logging.WARNING, logger="linewise"):
        loaded = registry.load("future")
    assert loaded.is_fallback
    assert _texts(registry, "future", "hello") == ["hello"]  # generic: raw stdout, not upper-cased
    assert "future_mod" not in sys.modules
    message = caplog.text
    assert "future-parser 3.1.0" in message and "<3,>=2" in message and CONTRACT_VERSION in message
    failure = registry.failed_loads["future"]
    assert failure.stage == "contract"
    assert f"newer than this host's contract {CONTRACT_VERSION}: upgrade linewise" in failure.hint
    assert registry.info("future").status is ParserStatus.INCOMPATIBLE


def test_undeclared_contract_loads_in_the_grace_period(fake_site: FakeSite) -> None:
    fake_site.add("old-parser", entry_points={"old": "old_mod"}, modules={"old_mod": ECHO})
    registry = _registry(fake_site)
    info = _by_type(registry)["old"]
    assert info.contract_verdict == "undeclared"
    assert info.reason is not None and "grace period" in info.reason
    assert _texts(registry, "old", "hi") == ["HI"]


def test_malformed_contract_requirement_is_refused(fake_site: FakeSite) -> None:
    fake_site.add(
        "bad-req",
        entry_points={"badreq": "badreq_mod"},
        requires=["linewise-contracts>=>1"],
        modules={"badreq_mod": ECHO},
    )
    registry = _registry(fake_site)
    assert registry.load("badreq").is_fallback
    assert "cannot read the contract requirement" in registry.failed_loads["badreq"].reason


# -- failed loads ------------------------------------------------------------------------


BROKEN = {
    "import_error": ("import definitely_not_installed_module\n", "import", "ModuleNotFoundError"),
    "raises_at_import": (
        "raise ValueError('config missing')\n",
        "import",
        "raised at import: ValueError: config missing",
    ),
    "exits_at_import": ("import sys\nsys.exit(3)\n", "import", "sys.exit(3)"),
    "exports_nothing": (
        "X = 1\n",
        "exports",
        "exports neither parse_stdout_line nor create_stdout_parser",
    ),
    "not_callable": (
        "parse_stdout_line = 'nope'\n",
        "exports",
        "parse_stdout_line is a str, not callable",
    ),
    "wrong_signature": (
        "def parse_stdout_line(line):\n    return []\n",
        "exports",
        "cannot be called as parse_stdout_line(line, ts)",
    ),
    "factory_takes_args": (
        "def create_stdout_parser(config):\n    return None\n",
        "exports",
        "cannot be called as create_stdout_parser()",
    ),
    "factory_raises": (
        "def create_stdout_parser():\n    raise OSError('no config')\n",
        "exports",
        "create_stdout_parser() raised OSError",
    ),
    "factory_returns_wrong_object": (
        "def create_stdout_parser():\n    return object()\n",
        "exports",
        "without parse_line()",
    ),
    "parser_without_reset": (
        "class P:\n    def parse_line(self, line, ts):\n        return []\n"
        "def create_stdout_parser():\n    return P()\n",
        "exports",
        "without reset()",
    ),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_plugin_falls_back_and_is_remembered(fake_site: FakeSite, case: str) -> None:
    source, stage, reason = BROKEN[case]
    module = f"broken_{case}"
    fake_site.add(f"broken-{case}", entry_points={case: module}, modules={module: source})
    fake_site.add("echo-parser", entry_points={"echo": "echo_mod"}, modules={"echo_mod": ECHO})
    registry = _registry(fake_site)
    loaded = registry.load(case)
    assert loaded.is_fallback
    failure = registry.failed_loads[case]
    assert isinstance(failure, FailedLoad)
    assert failure.stage == stage
    assert reason in failure.reason
    assert failure.distribution == f"broken-{case}" and failure.version == "1.0.0"
    assert failure.hint
    assert registry.info(case).status is ParserStatus.FAILED
    assert _texts(registry, case, "line") == ["line"]
    # Other plugins are unaffected.
    assert _texts(registry, "echo", "ok") == ["OK"]


def test_a_failed_load_is_not_retried_until_reload(fake_site: FakeSite) -> None:
    fake_site.add(
        "flaky-parser",
        entry_points={"flaky": "flaky_mod"},
        modules={
            "flaky_mod": "import builtins\nbuiltins.__dict__['_flaky'] = builtins.__dict__.get('_flaky', 0) + 1\nraise RuntimeError('boom')\n"
        },
    )
    import builtins

    builtins.__dict__.pop("_flaky", None)
    registry = _registry(fake_site)
    registry.load("flaky")
    registry.load("flaky")
    assert builtins.__dict__["_flaky"] == 1
    (fake_site.root / "flaky_mod.py").write_text(ECHO, encoding="utf-8")
    registry.reload("flaky")
    assert not registry.load("flaky").is_fallback
    assert builtins.__dict__.pop("_flaky") == 1
    assert _texts(registry, "flaky", "x") == ["X"]


@pytest.mark.parametrize(
    ("name", "value", "reason"),
    [
        ("Bad-Name", "echo_mod", "not snake_case"),
        ("x" * 65, "echo_mod", "longer than 64"),
        ("ok_name", "echo_mod:", "is not 'module' or 'module:attribute'"),
        ("ok_name2", "echo mod", "is not 'module' or 'module:attribute'"),
        ("process", "echo_mod", "reserved for the built-in parser"),
    ],
)
def test_bad_entry_points_are_failed_loads(
    fake_site: FakeSite, name: str, value: str, reason: str
) -> None:
    fake_site.add(
        "weird-parser",
        raw_entry_points=f"[linewise.parsers]\n{name} = {value}\n",
        modules={"echo_mod": ECHO},
    )
    registry = _registry(fake_site)
    info = next(i for i in registry.parsers() if i.adapter_type == name and not i.builtin)
    assert info.status is ParserStatus.FAILED
    assert reason in (info.reason or "")
    if name != "process":
        assert registry.load(name).is_fallback
        assert registry.failed_loads[name].stage == "entry point"


def test_missing_attribute_in_entry_point(fake_site: FakeSite) -> None:
    fake_site.add(
        "attr-parser", entry_points={"attr": "echo_mod:nothing_here"}, modules={"echo_mod": ECHO}
    )
    registry = _registry(fake_site)
    registry.load("attr")
    assert registry.failed_loads["attr"].stage == "exports"


def test_strict_mode_raises_on_load_failure(
    fake_site: FakeSite, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_site.add(
        "boom-parser",
        entry_points={"boom": "boom_mod"},
        modules={"boom_mod": "raise KeyError('k')\n"},
    )
    monkeypatch.setenv("LINEWISE_STRICT", "1")
    registry = _registry(fake_site)
    with pytest.raises(PluginLoadError) as caught:
        registry.load("boom")
    assert "raised at import: KeyError" in str(caught.value)
    assert isinstance(caught.value.__cause__, KeyError)


# -- duplicates and disabling ---------------------------------------------------------------


def _two_claims(site: FakeSite) -> None:
    site.add("zeta-claude", entry_points={"dup": "zeta_mod"}, modules={"zeta_mod": ECHO})
    site.add(
        "alpha-claude",
        entry_points={"dup": "alpha_mod"},
        modules={
            "alpha_mod": "def parse_stdout_line(line, ts):\n    return [{'kind': 'system', 'ts': ts, 'text': 'alpha'}]\n"
        },
    )


def test_duplicate_claims_warn_and_pick_a_deterministic_winner(
    fake_site: FakeSite, caplog: pytest.LogCaptureFixture
) -> None:
    _two_claims(fake_site)
    registry = _registry(fake_site)
    infos = [i for i in registry.parsers() if i.adapter_type == "dup"]
    statuses = {i.distribution: i.status for i in infos}
    # Same sys.path entry: the lower distribution name wins.
    assert statuses == {
        "alpha-claude": ParserStatus.AVAILABLE,
        "zeta-claude": ParserStatus.SHADOWED,
    }
    shadowed = next(i for i in infos if i.distribution == "zeta-claude")
    assert shadowed.shadowed_by == "alpha-claude"
    with caplog.at_level(logging.WARNING, logger="linewise"):
        assert _texts(registry, "dup", "x") == ["alpha"]
    assert "alpha-claude" in caplog.text and "zeta-claude" in caplog.text


def test_earlier_sys_path_entry_wins_a_duplicate(
    fake_site: FakeSite, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = FakeSite(tmp_path / "first")
    first.root.mkdir()
    monkeypatch.syspath_prepend(str(first.root))
    first.add("zeta-claude", entry_points={"dup": "zeta_mod"}, modules={"zeta_mod": ECHO})
    fake_site.add("alpha-claude", entry_points={"dup": "alpha_mod"}, modules={"alpha_mod": ECHO})
    registry = Registry(entry_points=[*fake_site.entry_points(), *first.entry_points()])
    winner = next(
        i
        for i in registry.parsers()
        if i.adapter_type == "dup" and i.status is ParserStatus.AVAILABLE
    )
    assert winner.distribution == "zeta-claude"


def test_disabling_the_winning_distribution_lets_the_other_serve(
    fake_site: FakeSite, monkeypatch: pytest.MonkeyPatch
) -> None:
    _two_claims(fake_site)
    monkeypatch.setenv("LINEWISE_DISABLE", "alpha-claude")
    registry = _registry(fake_site)
    assert _texts(registry, "dup", "x") == ["X"]
    statuses = {i.distribution: i.status for i in registry.parsers() if i.adapter_type == "dup"}
    assert statuses == {"alpha-claude": ParserStatus.DISABLED, "zeta-claude": ParserStatus.LOADED}


def test_disable_by_adapter_type_before_import(
    fake_site: FakeSite, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_site.add(
        "bomb-parser",
        entry_points={"bomb": "bomb_mod"},
        modules={"bomb_mod": "raise RuntimeError\n"},
    )
    fake_site.add("echo-parser", entry_points={"echo": "echo_mod"}, modules={"echo_mod": ECHO})
    monkeypatch.setenv("LINEWISE_DISABLE", " Bomb , other")
    registry = _registry(fake_site)
    loaded = registry.load("bomb")
    assert loaded.is_fallback and "LINEWISE_DISABLE" in (loaded.fallback_reason or "")
    assert "bomb_mod" not in sys.modules
    assert "bomb" not in registry.failed_loads
    assert _by_type(registry)["bomb"].status is ParserStatus.DISABLED
    assert _texts(registry, "echo", "x") == ["X"]


def test_only_allow_list(fake_site: FakeSite, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_site.add("echo-parser", entry_points={"echo": "echo_mod"}, modules={"echo_mod": ECHO})
    fake_site.add(
        "state-parser", entry_points={"stateful": "state_mod"}, modules={"state_mod": STATEFUL}
    )
    monkeypatch.setenv("LINEWISE_ONLY", "echo")
    registry = _registry(fake_site)
    infos = _by_type(registry)
    assert infos["echo"].status is ParserStatus.AVAILABLE
    assert infos["stateful"].status is ParserStatus.DISABLED
    assert "LINEWISE_ONLY" in (infos["stateful"].reason or "")
    assert registry.load("stateful").is_fallback


def test_api_equivalents_of_disable_and_only(fake_site: FakeSite) -> None:
    fake_site.add("echo-parser", entry_points={"echo": "echo_mod"}, modules={"echo_mod": ECHO})
    fake_site.add(
        "state-parser", entry_points={"stateful": "state_mod"}, modules={"state_mod": STATEFUL}
    )
    registry = _registry(fake_site, disable=["echo"])
    assert registry.load("echo").is_fallback
    assert not registry.load("stateful").is_fallback
    registry = _registry(fake_site, only=["echo-parser"])
    assert registry.load("stateful").is_fallback
    assert not registry.load("echo").is_fallback
    registry.disable("echo")
    assert registry.load("echo").is_fallback
    registry.only("stateful")
    assert not registry.load("stateful").is_fallback


# -- hooks -------------------------------------------------------------------------------------


class Recorder:
    def __init__(self) -> None:
        self.events: list[tuple[str, Any]] = []

    @hookimpl
    def linewise_parser_loaded(self, info: ParserInfo) -> None:
        self.events.append(("loaded", info.adapter_type))

    @hookimpl
    def linewise_parser_failed(self, failure: FailedLoad) -> None:
        self.events.append(("failed", failure.adapter_type))

    @hookimpl
    def linewise_line_failed(
        self, adapter_type: str, line_number: int, line: str, error: BaseException
    ) -> None:
        self.events.append(("line", (adapter_type, line_number, line, str(error))))


class Raiser:
    @hookimpl
    def linewise_parser_loaded(self, info: ParserInfo) -> None:
        raise RuntimeError("host app bug")


def test_hooks_observe_loads_failures_and_line_failures(fake_site: FakeSite) -> None:
    fake_site.add("echo-parser", entry_points={"echo": "echo_mod"}, modules={"echo_mod": ECHO})
    fake_site.add(
        "bomb-parser",
        entry_points={"bomb": "bomb_mod"},
        modules={"bomb_mod": "raise RuntimeError\n"},
    )
    fake_site.add(
        "shaky-parser",
        entry_points={"shaky": "shaky_mod"},
        modules={
            "shaky_mod": "def parse_stdout_line(line, ts):\n    raise ValueError('bad ' + line)\n"
        },
    )
    registry = _registry(fake_site)
    recorder = Recorder()
    registry.hooks.register(recorder)
    registry.hooks.register(Raiser())
    registry.load("echo")
    registry.load("bomb")
    _texts(registry, "shaky", "one")
    assert recorder.events == [
        ("loaded", "echo"),
        ("failed", "bomb"),
        ("loaded", "shaky"),
        ("line", ("shaky", 1, "one", "bad one")),
    ]
