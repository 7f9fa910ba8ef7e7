"""Environment checks: can Mistral Vibe run from here."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from linewise_contracts.environment import EnvironmentCheck

__all__ = ["check_environment"]


def check_environment(environ: Mapping[str, str] | None = None) -> list[EnvironmentCheck]:
    """Whether ``vibe`` can run with ``environ``: the CLI on PATH, and ``MISTRAL_API_KEY``."""
    from linewise_contracts.environment import command_check, variable_check

    env = os.environ if environ is None else environ
    return [
        command_check(
            "vibe",
            environ=env,
            found_code="vibe_command_found",
            found_message="Mistral Vibe found: `vibe`.",
            missing_code="vibe_command_missing",
            missing_message="Mistral Vibe (`vibe`) is not on PATH.",
            hint="Install it with `uv tool install mistral-vibe` (or pip).",
        ),
        variable_check(
            ("MISTRAL_API_KEY",),
            environ=env,
            present_code="vibe_api_key_present",
            present_message="MISTRAL_API_KEY is set for Vibe.",
            missing_code="vibe_api_key_missing",
            missing_message="MISTRAL_API_KEY is not set: Vibe also reads it from ~/.vibe/.env.",
            hint="Export MISTRAL_API_KEY, or run `vibe --setup` once.",
        ),
    ]
