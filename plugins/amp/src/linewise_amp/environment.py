"""Environment checks: can Amp run from here."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from linewise_contracts.environment import EnvironmentCheck

__all__ = ["check_environment"]


def check_environment(environ: Mapping[str, str] | None = None) -> list[EnvironmentCheck]:
    """Whether ``amp`` can run with ``environ``: the CLI on PATH, and ``AMP_API_KEY``.

    No key is only a warning: ``amp login`` also signs the CLI in.
    """
    from linewise_contracts.environment import command_check, variable_check

    env = os.environ if environ is None else environ
    return [
        command_check(
            "amp",
            environ=env,
            found_code="amp_command_found",
            found_message="Amp CLI found: `amp`.",
            missing_code="amp_command_missing",
            missing_message="The Amp CLI (`amp`) is not on PATH.",
            hint="Install it with `npm install -g @sourcegraph/amp`.",
        ),
        variable_check(
            ("AMP_API_KEY",),
            environ=env,
            present_code="amp_api_key_present",
            present_message="AMP_API_KEY is set for amp --execute.",
            missing_code="amp_api_key_missing",
            missing_message="AMP_API_KEY is not set: amp --execute needs it or an `amp login`.",
            hint="Create a key at ampcode.com/settings and export AMP_API_KEY, or run `amp login`.",
        ),
    ]
