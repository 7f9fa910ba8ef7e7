"""Environment checks: can Kimi (Kimi Code or kimi-cli, both ``kimi``) run from here."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from linewise_contracts.environment import EnvironmentCheck

__all__ = ["check_environment"]


def check_environment(environ: Mapping[str, str] | None = None) -> list[EnvironmentCheck]:
    """Whether ``kimi`` can run with ``environ``: the CLI on PATH (an error when missing).

    Kimi signs in with `/login` or reads its config file; no variable is required.
    """
    from linewise_contracts.environment import command_check

    env = os.environ if environ is None else environ
    return [
        command_check(
            "kimi",
            environ=env,
            found_code="kimi_command_found",
            found_message="Kimi CLI found: `kimi`.",
            missing_code="kimi_command_missing",
            missing_message="The Kimi CLI (`kimi`) is not on PATH.",
            hint="Install Kimi Code with `npm install -g @moonshot-ai/kimi-code`.",
        )
    ]
