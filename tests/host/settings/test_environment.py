"""The LINEWISE_* variables are read in one place (settings) and handed down to the registry,
which hands them to isolation and the JavaScript engine."""

from __future__ import annotations

import ast
from pathlib import Path

import linewise
import pytest
from linewise import Registry
from linewise.plugins.isolation import IsolationPolicy
from linewise.settings.environment import VARIABLES, Settings

HOST = Path(linewise.__file__).resolve().parent


def test_the_settings_are_each_variable_as_set_and_none_when_unset() -> None:
    settings = Settings.from_environment({"LINEWISE_DISABLE": "a,b", "LINEWISE_STRICT": "yes"})
    assert settings == Settings(disable="a,b", strict="yes")
    assert settings.strict_on
    assert settings.only is None
    assert not Settings().strict_on
    assert set(VARIABLES.values()) == {
        "LINEWISE_DISABLE",
        "LINEWISE_ONLY",
        "LINEWISE_STRICT",
        "LINEWISE_ISOLATE",
        "LINEWISE_LINE_TIMEOUT",
        "LINEWISE_WORKER_MEMORY",
        "LINEWISE_JS_HEAP",
    }


def test_a_registry_given_settings_obeys_them_and_not_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LINEWISE_STRICT", "1")
    monkeypatch.setenv("LINEWISE_ISOLATE", "all")
    registry = Registry(entry_points=[], settings=Settings(worker_memory="256"))
    assert not registry.strict
    assert not registry.isolation.active
    assert registry.isolation.worker_memory == 256
    asked = Registry(entry_points=[], settings=Settings(strict="on", isolate="zoo"))
    assert asked.strict
    assert asked.isolation.covers("zoo", None)
    # registry.isolate() later keeps the registry's settings for the limits it is not given.
    asked.isolate(["other"])
    assert asked.isolation.covers("other", None)


def test_without_settings_a_registry_reads_the_process_environment_as_documented(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LINEWISE_STRICT", "1")
    monkeypatch.setenv("LINEWISE_DISABLE", "zoo")
    registry = Registry(entry_points=[])
    assert registry.strict
    assert registry._disabled == frozenset({"zoo"})


def test_an_isolation_policy_without_settings_asks_for_no_isolation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LINEWISE_ISOLATE", "all")
    assert not IsolationPolicy.build().active
    assert IsolationPolicy.build(settings=Settings(isolate="all")).active


def _reads_the_environment(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    names |= {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    return bool(names & {"environ", "getenv"})


#: The modules given a Settings instead: the registry, isolation's policy, the JavaScript engine.
GIVEN_SETTINGS = [
    "plugins/registry.py",
    "plugins/loading.py",
    "plugins/isolation/_policy.py",
    *sorted(str(path.relative_to(HOST)) for path in (HOST / "plugins/javascript").glob("*.py")),
]


@pytest.mark.parametrize("module", GIVEN_SETTINGS)
def test_the_registry_isolation_and_the_javascript_engine_read_no_environment(module: str) -> None:
    assert not _reads_the_environment(HOST / module)


def test_the_check_finds_a_read_of_the_environment(tmp_path: Path) -> None:
    for text in ("import os\nos.environ.get('X')\n", "from os import getenv\ngetenv('X')\n"):
        (tmp_path / "reads.py").write_text(text, encoding="utf-8")
        assert _reads_the_environment(tmp_path / "reads.py")
    (tmp_path / "reads.py").write_text("def f(settings):\n    return settings.js_heap\n")
    assert not _reads_the_environment(tmp_path / "reads.py")


def test_the_javascript_engine_limits_come_from_the_settings() -> None:
    from linewise.plugins.javascript._engine import DEFAULT_HEAP_MIB, DEFAULT_TIME_LIMIT
    from linewise.plugins.javascript._engine import EngineLimits as Limits

    assert Limits.from_settings(Settings(line_timeout="0.5", js_heap="32")) == Limits(0.5, 32)
    # Unset, not a number or not positive: the default, as for the other limits.
    for bad in (None, "lots", "-1", "0"):
        limits = Limits.from_settings(Settings(line_timeout=bad, js_heap=bad))
        assert limits == Limits(DEFAULT_TIME_LIMIT, DEFAULT_HEAP_MIB)
