"""Environment checks: can Gemini CLI run here, and with which credentials."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from pathlib import Path

    from linewise_contracts.environment import EnvironmentCheck

__all__ = ["check_environment"]

_COMMAND: Final = "gemini"
_INSTALL_HINT: Final = (
    "Install Gemini CLI (npm install -g @google/gemini-cli, Node.js 20 or newer) "
    "and make sure its directory is on PATH."
)


def _is_true(value: str | None) -> bool:
    return (value or "").strip().lower() in ("1", "true", "yes")


def _login_file(env: Mapping[str, str], use_real_home: bool) -> Path | None:
    # Gemini keeps its Google login in <home>/.gemini/oauth_creds.json, where
    # GEMINI_CLI_HOME replaces the home directory.
    from pathlib import Path

    home = env.get("GEMINI_CLI_HOME") or env.get("HOME") or env.get("USERPROFILE")
    if not home:
        if not use_real_home:
            return None
        home = str(Path.home())
    path = Path(home) / ".gemini" / "oauth_creds.json"
    try:
        return path if path.is_file() else None
    except OSError:  # an unreadable home directory: treat as no login
        return None


def _credential_checks(env: Mapping[str, str], use_real_home: bool) -> list[EnvironmentCheck]:
    from linewise_contracts.environment import EnvironmentCheck

    checks: list[EnvironmentCheck] = []
    if env.get("GEMINI_API_KEY", "").strip():
        checks.append(
            EnvironmentCheck(
                code="gemini_api_key_set",
                level="info",
                message="GEMINI_API_KEY is set: Gemini CLI can use API-key authentication",
            )
        )
    if _is_true(env.get("GOOGLE_GENAI_USE_VERTEXAI")):
        has_key = bool(env.get("GOOGLE_API_KEY", "").strip())
        has_project = all(
            env.get(name, "").strip() for name in ("GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION")
        )
        if has_key or has_project:
            checks.append(
                EnvironmentCheck(
                    code="gemini_vertex_configured",
                    level="info",
                    message="Vertex AI is selected (GOOGLE_GENAI_USE_VERTEXAI) and configured",
                    detail="GOOGLE_API_KEY" if has_key else "GOOGLE_CLOUD_PROJECT/LOCATION",
                )
            )
        else:
            checks.append(
                EnvironmentCheck(
                    code="gemini_vertex_incomplete",
                    level="warn",
                    message="GOOGLE_GENAI_USE_VERTEXAI is set but Vertex AI is not configured",
                    hint="Set GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION (with gcloud "
                    "application-default credentials), or GOOGLE_API_KEY.",
                )
            )
    login = _login_file(env, use_real_home)
    if login is not None:
        checks.append(
            EnvironmentCheck(
                code="gemini_login_found",
                level="info",
                message="a cached Google login for Gemini CLI was found",
                detail=str(login),
            )
        )
    if not checks:
        # Not an error: Gemini can still sign in interactively, or use a login
        # kept in the system keychain, which this check cannot see.
        checks.append(
            EnvironmentCheck(
                code="gemini_credentials_missing",
                level="warn",
                message="no Gemini credentials found (no GEMINI_API_KEY, no Vertex AI "
                "settings, no cached Google login)",
                hint="Run `gemini` once in a terminal to sign in with Google, or set "
                "GEMINI_API_KEY; headless runs fail with 'Manual authorization is required' "
                "otherwise.",
            )
        )
    return checks


def check_environment(environ: Mapping[str, str] | None = None) -> list[EnvironmentCheck]:
    """Whether Gemini CLI can run with ``environ`` (``os.environ`` when None).

    An error when ``gemini`` is not on the environment's PATH; credentials are
    reported as info when found and a warning when none are (the CLI can still
    sign in). Never raises for what it finds.
    """
    # Imported here, not with the plugin: rendering a log never checks the environment.
    from linewise_contracts.environment import command_check

    env: Mapping[str, str] = os.environ if environ is None else environ
    command = command_check(
        _COMMAND,
        environ=env,
        found_code="gemini_command_found",
        found_message="gemini is on PATH",
        missing_code="gemini_command_missing",
        missing_message="gemini is not on PATH: the gemini_local adapter cannot start Gemini CLI",
        hint=_INSTALL_HINT,
    )
    return [command, *_credential_checks(env, use_real_home=environ is None)]
