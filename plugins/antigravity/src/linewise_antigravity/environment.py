"""Environment checks: can the Antigravity CLI (``agy``) run from here."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from linewise_contracts.environment import EnvironmentCheck

__all__ = ["check_environment"]


def check_environment(environ: Mapping[str, str] | None = None) -> list[EnvironmentCheck]:
    """Whether ``agy`` can run with ``environ`` (the process environment by default).

    The CLI missing from PATH is an error. agy signs in with a Google account
    (no API key variable), so whether it is signed in is only known when a
    run starts.
    """
    # Imported here, not with the plugin: rendering a log never checks the environment.
    from linewise_contracts.environment import command_check

    env = os.environ if environ is None else environ
    return [
        command_check(
            "agy",
            environ=env,
            found_code="agy_command_found",
            found_message="Antigravity CLI found: `agy`.",
            missing_code="agy_command_missing",
            missing_message="The Antigravity CLI (`agy`) is not on PATH.",
            hint="Install Google's Antigravity CLI and sign in once with `agy` in a terminal.",
        )
    ]
