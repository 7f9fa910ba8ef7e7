"""Fixtures of linewise serve's tests (the homes are written by tests/serve_homes.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from serve_homes import write_claude

pytest.importorskip("starlette", reason="linewise-serve's web stack is not installed")


@pytest.fixture
def claude_session() -> Callable[..., Path]:
    return write_claude
