"""Environment checks: ACP agents are many programs, so only what linewise itself can tell."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from linewise_contracts.environment import EnvironmentCheck

__all__ = ["check_environment"]

# Common ACP agent commands (Zed's adapters, Gemini CLI's --experimental-acp, ...).
_AGENTS: Final = ("codex-acp", "claude-code-acp", "gemini", "goose", "opencode", "qwen")


def check_environment(environ: Mapping[str, str] | None = None) -> list[EnvironmentCheck]:
    """Which well-known ACP agent commands are on ``environ``'s PATH (``os.environ`` when None).

    ACP is a protocol, not one CLI: finding none of them is reported the way
    every plugin reports its CLI missing (an error coded ``..._missing``, which
    ``linewise doctor`` shows as "not installed", not as a failure); the
    adapter still reads the stdout of any ACP agent.
    """
    # Imported here, not with the plugin: rendering a log never checks the environment.
    import shutil

    from linewise_contracts.environment import EnvironmentCheck

    env = os.environ if environ is None else environ
    path = env.get("PATH", "")
    found = [name for name in _AGENTS if path and shutil.which(name, path=path)]
    if found:
        return [
            EnvironmentCheck(
                code="acp_agents_found",
                level="info",
                message="ACP agent commands on PATH: " + ", ".join(found),
            )
        ]
    return [
        EnvironmentCheck(
            code="acp_agents_missing",
            level="error",
            message="no well-known ACP agent command on PATH (" + ", ".join(_AGENTS) + ")",
            hint="Install an ACP agent (e.g. npm install -g @zed-industries/codex-acp); "
            "linewise reads the stdout of any of them.",
        )
    ]
