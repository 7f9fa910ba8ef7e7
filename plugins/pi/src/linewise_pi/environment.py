"""Environment checks: can the Pi coding agent run from here."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from linewise_contracts.environment import EnvironmentCheck

__all__ = ["PROVIDER_KEYS", "check_environment"]

#: API key variables of the model providers Pi reads from the environment.
PROVIDER_KEYS: Final = (
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_OAUTH_TOKEN",
    "OPENAI_API_KEY",
    "AZURE_OPENAI_API_KEY",
    "GEMINI_API_KEY",
    "OPENROUTER_API_KEY",
    "GROQ_API_KEY",
    "XAI_API_KEY",
    "CEREBRAS_API_KEY",
    "MISTRAL_API_KEY",
    "ZAI_API_KEY",
    "AI_GATEWAY_API_KEY",
)


def check_environment(environ: Mapping[str, str] | None = None) -> list[EnvironmentCheck]:
    """Whether ``pi`` can run with ``environ`` (the process environment by default).

    The CLI missing from PATH is an error; no provider API key is only a
    warning, because Pi can also use a subscription login (``/login``) or
    providers configured in its models.json.
    """
    # Imported here, not with the plugin: rendering a log never checks the environment.
    from linewise_contracts.environment import command_check, variable_check

    env = os.environ if environ is None else environ
    return [
        command_check(
            "pi",
            environ=env,
            found_code="pi_command_found",
            found_message="Pi CLI found: `pi`.",
            missing_code="pi_command_missing",
            missing_message="The Pi coding agent CLI (`pi`) is not on PATH.",
            hint="Install it with `npm install -g @mariozechner/pi-coding-agent`.",
        ),
        variable_check(
            PROVIDER_KEYS,
            environ=env,
            present_code="pi_api_key_present",
            present_message="Model provider credentials are set for Pi.",
            missing_code="pi_api_key_missing",
            missing_message="No model provider API key is set: Pi needs a `/login` or models.json.",
            hint="Set the key of the provider you use (for example ANTHROPIC_API_KEY or "
            "OPENAI_API_KEY), or run `pi` once and `/login` to a subscription.",
            names_as_detail=True,
        ),
    ]
