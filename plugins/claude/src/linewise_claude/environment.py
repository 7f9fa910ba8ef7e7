"""Environment checks: can Claude Code run headless from here, and how will it authenticate."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from linewise_contracts.environment import EnvironmentCheck

__all__ = ["check_environment"]

_INSTALL_HINT = "Install it with `npm install -g @anthropic-ai/claude-code` and put it on PATH."


def check_environment(environ: Mapping[str, str] | None = None) -> list[EnvironmentCheck]:
    """Whether ``claude`` can run with ``environ`` (the process environment by default).

    The CLI missing from PATH is an error. ``ANTHROPIC_API_KEY`` being set is a
    warning, not an error: Claude still runs, but bills the API key instead of
    the logged-in subscription, which is rarely what a user expects.
    """
    # Imported here, not with the plugin: rendering a log never checks the environment.
    from linewise_contracts.environment import EnvironmentCheck, command_check

    env = os.environ if environ is None else environ
    checks = [
        command_check(
            "claude",
            environ=env,
            found_code="claude_command_found",
            found_message="Claude Code CLI found: `claude`.",
            missing_code="claude_command_missing",
            missing_message="The Claude Code CLI (`claude`) is not on PATH.",
            hint=_INSTALL_HINT,
        )
    ]
    if env.get("ANTHROPIC_API_KEY", "").strip():
        checks.append(
            EnvironmentCheck(
                code="claude_anthropic_api_key_overrides_subscription",
                level="warn",
                message="ANTHROPIC_API_KEY is set: Claude will bill the API key, not your login.",
                hint="Unset ANTHROPIC_API_KEY to use the subscription of `claude login`.",
            )
        )
    else:
        checks.append(
            EnvironmentCheck(
                code="claude_subscription_auth",
                level="info",
                message="No ANTHROPIC_API_KEY: Claude uses the login from `claude login`.",
            )
        )
    if env.get("CLAUDE_CODE_USE_BEDROCK") or env.get("CLAUDE_CODE_USE_VERTEX"):
        provider = "Bedrock" if env.get("CLAUDE_CODE_USE_BEDROCK") else "Vertex AI"
        checks.append(
            EnvironmentCheck(
                code="claude_cloud_provider",
                level="info",
                message=f"Claude Code is configured for {provider}.",
            )
        )
    return checks
