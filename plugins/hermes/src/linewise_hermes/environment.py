"""Whether the Hermes Agent CLI can run here: the command on PATH and model credentials."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from linewise_contracts.environment import EnvironmentCheck

__all__ = ["API_KEY_VARIABLES", "HERMES_COMMAND", "check_environment"]

#: The command the adapter runs.
HERMES_COMMAND: Final = "hermes"

#: Provider API keys Hermes reads from the environment, and who they are for.
API_KEY_VARIABLES: Final = {
    "OPENROUTER_API_KEY": "OpenRouter",
    "ANTHROPIC_API_KEY": "Anthropic",
    "OPENAI_API_KEY": "OpenAI",
    "ZAI_API_KEY": "Z.AI",
    "KIMI_API_KEY": "Kimi",
    "MINIMAX_API_KEY": "MiniMax",
}


def check_environment(environ: Mapping[str, str] | None = None) -> list[EnvironmentCheck]:
    """Check that ``hermes`` is on PATH and whether a provider API key is set.

    ``environ`` defaults to the process environment; its ``PATH`` is searched.
    A missing command is an error. No API key in the environment is only a
    warning: Hermes keeps keys in ``~/.hermes/.env`` and its config, which it
    reads itself.
    """
    # Imported here, not with the plugin: rendering a log never checks the environment.
    from linewise_contracts.environment import EnvironmentCheck, command_check

    env = os.environ if environ is None else environ
    checks = [
        command_check(
            HERMES_COMMAND,
            environ=env,
            found_code="hermes_command_found",
            found_message="Hermes CLI found: {path}",
            missing_code="hermes_command_missing",
            missing_message=f"Hermes CLI {HERMES_COMMAND!r} not found on PATH",
            hint="Install Hermes Agent (pip install hermes-agent) and put `hermes` on PATH",
            path_as_detail=False,
        )
    ]
    providers = [name for key, name in API_KEY_VARIABLES.items() if env.get(key, "").strip()]
    if providers:
        checks.append(
            EnvironmentCheck(
                code="hermes_api_keys_found",
                level="info",
                message=f"API keys found for: {', '.join(providers)}",
            )
        )
    else:
        home = env.get("HERMES_HOME") or "~/.hermes"
        checks.append(
            EnvironmentCheck(
                code="hermes_no_api_keys",
                level="warn",
                message="No LLM provider API key in the environment",
                detail=f"Hermes can still use keys from {home}/.env or its config.yaml.",
                hint="Set one of " + ", ".join(API_KEY_VARIABLES) + f", or add it to {home}/.env",
            )
        )
    return checks
