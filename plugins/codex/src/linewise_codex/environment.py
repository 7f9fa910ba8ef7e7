"""Whether the Codex CLI can run here: the command on PATH and a way to authenticate."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from pathlib import Path

    from linewise_contracts.environment import EnvironmentCheck

__all__ = ["check_environment"]

_COMMAND: Final = "codex"
# Codex reads an API key from either variable; `codex exec` prefers CODEX_API_KEY.
_KEY_VARIABLES: Final = ("CODEX_API_KEY", "OPENAI_API_KEY")


def _auth_file(environ: Mapping[str, str]) -> Path | None:
    """Where `codex login` keeps its credentials: $CODEX_HOME/auth.json, else ~/.codex/auth.json."""
    from pathlib import Path

    home = environ.get("CODEX_HOME", "").strip()
    if home:
        return Path(home) / "auth.json"
    user_home = environ.get("HOME", "").strip()
    return Path(user_home) / ".codex" / "auth.json" if user_home else None


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # an unreadable home directory: no login we can see
        return False


def check_environment(environ: Mapping[str, str] | None = None) -> list[EnvironmentCheck]:
    """Check that ``codex`` is on PATH (an error if not) and that it can authenticate.

    Uses ``environ`` (default: this process's environment) for PATH and the
    credential variables; a missing API key is a warning, not an error,
    because Codex can use the login `codex login` stored instead. Values of
    credential variables are never reported.
    """
    # Imported here, not with the plugin: rendering a log never checks the environment.
    from linewise_contracts.environment import EnvironmentCheck, command_check

    env = os.environ if environ is None else environ
    checks = [
        command_check(
            _COMMAND,
            environ=env,
            found_code="codex_command_found",
            found_message="The codex command is on PATH.",
            missing_code="codex_command_missing",
            missing_message="The codex command is not on PATH.",
            hint="Install the Codex CLI (`npm install -g @openai/codex`) or add it to PATH.",
        )
    ]

    keys = [name for name in _KEY_VARIABLES if env.get(name, "").strip()]
    auth_file = _auth_file(env)
    logged_in = auth_file is not None and _is_file(auth_file)
    if keys:
        checks.append(
            EnvironmentCheck(
                code="codex_api_key_present",
                level="info",
                message=f"{' and '.join(keys)} is set for Codex authentication.",
            )
        )
    elif logged_in:
        checks.append(
            EnvironmentCheck(
                code="codex_login_found",
                level="info",
                message="No API key variable is set; Codex will use the stored `codex login`.",
                detail=str(auth_file),
            )
        )
    else:
        checks.append(
            EnvironmentCheck(
                code="codex_credentials_missing",
                level="warn",
                message="No API key variable is set and no `codex login` was found; runs may fail "
                "until Codex can authenticate.",
                detail=f"Looked for {' and '.join(_KEY_VARIABLES)} and {auth_file or '~/.codex'}.",
                hint="Run `codex login`, or set OPENAI_API_KEY (or CODEX_API_KEY).",
            )
        )
    return checks
