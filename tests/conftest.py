"""Shared fixtures: isolation from the developer's environment, hypothesis profiles, fake sites."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from support import FakeSite

# Small budgets by default (CI has 2 cores); `--hypothesis-profile=long` for fuzzing runs.
settings.register_profile(
    "default", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "long", max_examples=20_000, deadline=None, suppress_health_check=list(HealthCheck)
)
settings.load_profile("default")


@pytest.fixture(scope="session")
def _scan_cache_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("linewise-cache")


@pytest.fixture(autouse=True)
def _isolated_environment(
    monkeypatch: pytest.MonkeyPatch, _scan_cache_folder: Path
) -> Iterator[None]:
    """No test sees the developer's LINEWISE_* settings or a registry another test built.

    The entry-point scan cache lives in a folder of the test session (used by
    the tests' own `linewise` processes too), never in the developer's.
    """
    for name in (
        "LINEWISE_DISABLE",
        "LINEWISE_ONLY",
        "LINEWISE_STRICT",
        "LINEWISE_ISOLATE",
        "LINEWISE_LINE_TIMEOUT",
        "LINEWISE_WORKER_MEMORY",
        "NO_COLOR",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LINEWISE_CACHE_DIR", str(_scan_cache_folder))
    from linewise import reset_registry

    reset_registry()
    yield
    reset_registry()


@pytest.fixture
def fake_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSite]:
    """A fake site directory on sys.path; modules imported from it are forgotten afterwards."""
    root = tmp_path / "site"
    root.mkdir()
    monkeypatch.syspath_prepend(str(root))
    before = set(sys.modules)
    yield FakeSite(root)
    for name in set(sys.modules) - before:
        module = sys.modules.get(name)
        if module is not None and str(getattr(module, "__file__", "") or "").startswith(str(root)):
            del sys.modules[name]
