"""Environment checks: can OpenCode run here, and with which provider credentials."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from pathlib import Path

    from linewise_contracts.environment import EnvironmentCheck

__all__ = ["check_environment"]

_COMMAND: Final = "opencode"
_INSTALL_HINT: Final = (
    "Install OpenCode (npm install -g opencode-ai, or the installer at opencode.ai) "
    "and make sure its directory is on PATH."
)
# Provider keys OpenCode picks up from the environment, as models.dev lists them
# for the common providers (names only are ever reported, never values).
_PROVIDER_KEYS: Final = (
    "ANTHROPIC_API_KEY",
    "OPENAI_API_KEY",
    "GEMINI_API_KEY",
    "GOOGLE_GENERATIVE_AI_API_KEY",
    "OPENROUTER_API_KEY",
    "GROQ_API_KEY",
    "XAI_API_KEY",
    "DEEPSEEK_API_KEY",
    "MISTRAL_API_KEY",
)


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # an unreadable directory: as good as absent
        return False


def _auth_file(env: Mapping[str, str], use_real_home: bool) -> Path | None:
    # `opencode auth login` stores credentials in $XDG_DATA_HOME/opencode/auth.json.
    from pathlib import Path

    data = env.get("XDG_DATA_HOME")
    if not data:
        home = env.get("HOME") or env.get("USERPROFILE")
        if not home:
            if not use_real_home:
                return None
            home = str(Path.home())
        data = str(Path(home) / ".local" / "share")
    path = Path(data) / "opencode" / "auth.json"
    return path if _is_file(path) else None


def _credential_checks(env: Mapping[str, str], use_real_home: bool) -> list[EnvironmentCheck]:
    from pathlib import Path

    from linewise_contracts.environment import EnvironmentCheck

    checks: list[EnvironmentCheck] = []
    keys = [name for name in _PROVIDER_KEYS if env.get(name, "").strip()]
    if keys:
        checks.append(
            EnvironmentCheck(
                code="opencode_provider_keys_found",
                level="info",
                message="provider credentials in the environment: " + ", ".join(keys),
            )
        )
    stored = _auth_file(env, use_real_home)
    if stored is not None:
        checks.append(
            EnvironmentCheck(
                code="opencode_auth_found",
                level="info",
                message="OpenCode has stored provider logins (opencode auth login)",
                detail=str(stored),
            )
        )
    if not checks:
        # Not an error: OpenCode's own free models need no key, and a provider
        # may be configured in opencode.json.
        checks.append(
            EnvironmentCheck(
                code="opencode_credentials_missing",
                level="warn",
                message="no provider credentials found (no known API key variable, no "
                "stored `opencode auth login`)",
                hint="Run `opencode auth login` or set the API key of your provider "
                "(e.g. ANTHROPIC_API_KEY); only OpenCode's free models work without one.",
            )
        )
    config = env.get("OPENCODE_CONFIG", "").strip()
    if config and not _is_file(Path(config)):
        checks.append(
            EnvironmentCheck(
                code="opencode_config_missing",
                level="warn",
                message="OPENCODE_CONFIG names a file that does not exist",
                detail=config,
                hint="Point OPENCODE_CONFIG at your opencode.json, or unset it.",
            )
        )
    return checks


def check_environment(environ: Mapping[str, str] | None = None) -> list[EnvironmentCheck]:
    """Whether OpenCode can run with ``environ`` (``os.environ`` when None).

    An error when ``opencode`` is not on the environment's PATH; provider
    credentials are info when found and a warning when none are (OpenCode can
    still run its free models). Never raises for what it finds.
    """
    # Imported here, not with the plugin: rendering a log never checks the environment.
    from linewise_contracts.environment import command_check

    env: Mapping[str, str] = os.environ if environ is None else environ
    command = command_check(
        _COMMAND,
        environ=env,
        found_code="opencode_command_found",
        found_message="opencode is on PATH",
        missing_code="opencode_command_missing",
        missing_message="opencode is not on PATH: the opencode_local adapter cannot start OpenCode",
        hint=_INSTALL_HINT,
    )
    return [command, *_credential_checks(env, use_real_home=environ is None)]
