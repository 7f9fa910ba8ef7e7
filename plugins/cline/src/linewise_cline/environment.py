"""Environment checks: can the Cline CLI run from here."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from linewise_contracts.environment import EnvironmentCheck

__all__ = ["check_environment"]


def check_environment(environ: Mapping[str, str] | None = None) -> list[EnvironmentCheck]:
    """Whether ``cline`` can run with ``environ``: the CLI on PATH (an error when missing).

    Cline keeps its provider and key from ``cline auth`` in its own data folder,
    so no variable is required.
    """
    from linewise_contracts.environment import command_check

    env = os.environ if environ is None else environ
    return [
        command_check(
            "cline",
            environ=env,
            found_code="cline_command_found",
            found_message="Cline CLI found: `cline`.",
            missing_code="cline_command_missing",
            missing_message="The Cline CLI (`cline`) is not on PATH.",
            hint="Install it with `npm install -g cline` and run `cline auth` once.",
        )
    ]
