"""Environment checks: can Cursor Agent (local) or a Cursor Cloud agent run from here."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from linewise_contracts.environment import EnvironmentCheck

__all__ = ["check_cloud_environment", "check_environment"]

# The installer names the binary `cursor-agent`; newer releases add the shorter `agent`.
_COMMANDS: Final = ("cursor-agent", "agent")
_INSTALL_HINT: Final = (
    "Install it with `curl https://cursor.com/install -fsS | bash` and put ~/.local/bin on PATH."
)
_API_KEY: Final = "CURSOR_API_KEY"


def check_environment(environ: Mapping[str, str] | None = None) -> list[EnvironmentCheck]:
    """Whether ``cursor-agent`` can run with ``environ`` (the process environment by default).

    The CLI missing from PATH is an error; no ``CURSOR_API_KEY`` is only a
    warning, because a ``cursor-agent login`` session works as well.
    """
    # Imported here, not with the plugin: rendering a log never checks the environment.
    from linewise_contracts.environment import command_check, variable_check

    env = os.environ if environ is None else environ
    return [
        command_check(
            _COMMANDS,
            environ=env,
            found_code="cursor_command_found",
            found_message="Cursor Agent CLI found: `{name}`.",
            missing_code="cursor_command_missing",
            missing_message="The Cursor Agent CLI (`cursor-agent` or `agent`) is not on PATH.",
            hint=_INSTALL_HINT,
        ),
        variable_check(
            _API_KEY,
            environ=env,
            present_code="cursor_api_key_present",
            present_message="CURSOR_API_KEY is set: Cursor authenticates with the API key.",
            missing_code="cursor_api_key_missing",
            missing_message="CURSOR_API_KEY is not set: runs need a `cursor-agent login` session.",
            hint="Run `cursor-agent login` once, or set CURSOR_API_KEY for headless machines.",
        ),
    ]


def check_cloud_environment(environ: Mapping[str, str] | None = None) -> list[EnvironmentCheck]:
    """Whether a Cursor Cloud agent can be started with ``environ``.

    Cloud agents run on Cursor's machines, so no local CLI is needed; the API
    key is the only way to authenticate, so its absence is an error.
    """
    from linewise_contracts.environment import variable_check

    env = os.environ if environ is None else environ
    return [
        variable_check(
            _API_KEY,
            environ=env,
            present_code="cursor_cloud_api_key_present",
            present_message="CURSOR_API_KEY is set for Cursor Cloud agents.",
            missing_code="cursor_cloud_api_key_missing",
            missing_message="CURSOR_API_KEY is required: "
            "Cursor Cloud agents authenticate only with it.",
            hint="Create a key in the Cursor dashboard (Integrations) and set CURSOR_API_KEY.",
            missing_level="error",
        )
    ]
