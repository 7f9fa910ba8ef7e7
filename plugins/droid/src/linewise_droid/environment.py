"""Environment checks: can Factory Droid (``droid``) run from here."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from linewise_contracts.environment import EnvironmentCheck

__all__ = ["check_environment"]


def check_environment(environ: Mapping[str, str] | None = None) -> list[EnvironmentCheck]:
    """Whether ``droid`` can run with ``environ`` (the process environment by default).

    The CLI missing from PATH is an error; no ``FACTORY_API_KEY`` is a warning,
    since an interactive ``droid`` login also works for ``droid exec``.
    """
    # Imported here, not with the plugin: rendering a log never checks the environment.
    from linewise_contracts.environment import command_check, variable_check

    env = os.environ if environ is None else environ
    return [
        command_check(
            "droid",
            environ=env,
            found_code="droid_command_found",
            found_message="Factory Droid CLI found: `droid`.",
            missing_code="droid_command_missing",
            missing_message="The Factory Droid CLI (`droid`) is not on PATH.",
            hint="Install it with `curl -fsSL https://app.factory.ai/cli | sh`.",
        ),
        variable_check(
            ("FACTORY_API_KEY",),
            environ=env,
            present_code="droid_api_key_present",
            present_message="FACTORY_API_KEY is set for droid exec.",
            missing_code="droid_api_key_missing",
            missing_message="FACTORY_API_KEY is not set: droid exec needs it or a `droid` login.",
            hint="Create a key at app.factory.ai/settings/api-keys and export FACTORY_API_KEY.",
        ),
    ]
