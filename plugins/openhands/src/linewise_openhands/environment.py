"""Environment checks: can the OpenHands CLI run from here."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from linewise_contracts.environment import EnvironmentCheck

__all__ = ["check_environment"]


def check_environment(environ: Mapping[str, str] | None = None) -> list[EnvironmentCheck]:
    """Whether ``openhands`` can run with ``environ``: the CLI on PATH, and an LLM key.

    No ``LLM_API_KEY`` is only a warning: the CLI's settings file may hold one.
    """
    from linewise_contracts.environment import command_check, variable_check

    env = os.environ if environ is None else environ
    return [
        command_check(
            "openhands",
            environ=env,
            found_code="openhands_command_found",
            found_message="OpenHands CLI found: `openhands`.",
            missing_code="openhands_command_missing",
            missing_message="The OpenHands CLI (`openhands`) is not on PATH.",
            hint="Install it with `uv tool install openhands`.",
        ),
        variable_check(
            ("LLM_API_KEY",),
            environ=env,
            present_code="openhands_api_key_present",
            present_message="LLM_API_KEY is set for OpenHands.",
            missing_code="openhands_api_key_missing",
            missing_message="LLM_API_KEY is not set (OpenHands may read it from its settings).",
            hint="Export LLM_API_KEY (and LLM_MODEL), or run `openhands` once to configure it.",
        ),
    ]
