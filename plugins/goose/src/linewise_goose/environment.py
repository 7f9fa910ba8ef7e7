"""Environment checks: can Goose run from here."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from linewise_contracts.environment import EnvironmentCheck

__all__ = ["check_environment"]


def check_environment(environ: Mapping[str, str] | None = None) -> list[EnvironmentCheck]:
    """Whether ``goose`` can run with ``environ``: the CLI on PATH (an error when missing).

    Goose keeps its provider and key in ``goose configure``'s config and keyring,
    so no variable is required.
    """
    from linewise_contracts.environment import command_check

    env = os.environ if environ is None else environ
    return [
        command_check(
            "goose",
            environ=env,
            found_code="goose_command_found",
            found_message="Goose CLI found: `goose`.",
            missing_code="goose_command_missing",
            missing_message="The Goose CLI (`goose`) is not on PATH.",
            hint="Install it from the goose releases and run `goose configure` once.",
        )
    ]
