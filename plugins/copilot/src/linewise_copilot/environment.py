"""Environment checks for ``copilot_local``: can GitHub Copilot CLI run here, signed in."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from linewise_contracts.environment import EnvironmentCheck

__all__ = ["check_environment"]

_INSTALL_HINT: Final = (
    "Install GitHub Copilot CLI (npm install -g @github/copilot) and make sure its "
    "directory is on PATH."
)
# The token variables Copilot CLI reads, in its order of precedence (names only are
# ever reported, never values).
_TOKENS: Final = ("COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN")


def check_environment(environ: Mapping[str, str] | None = None) -> list[EnvironmentCheck]:
    """Whether ``copilot`` can run with ``environ`` (``os.environ`` when None).

    An error when ``copilot`` is not on the environment's PATH; the token
    variable it would use is info when set. Without one, Copilot uses the
    login stored by ``copilot login``, which is not looked at: that is said,
    not warned about. Never raises.
    """
    # Imported here, not with the plugin: rendering a log never checks the environment.
    from linewise_contracts.environment import EnvironmentCheck, command_check

    env: Mapping[str, str] = os.environ if environ is None else environ
    command = command_check(
        "copilot",
        environ=env,
        found_code="copilot_command_found",
        found_message="copilot is on PATH",
        missing_code="copilot_command_missing",
        missing_message="copilot is not on PATH: the copilot_local adapter cannot start it",
        hint=_INSTALL_HINT,
    )
    token = next((name for name in _TOKENS if env.get(name, "").strip()), None)
    if token is not None:
        credentials = EnvironmentCheck(
            code="copilot_token_found",
            level="info",
            message=f"Copilot CLI will authenticate with {token}",
        )
    else:
        credentials = EnvironmentCheck(
            code="copilot_token_unset",
            level="info",
            message="no token variable set: Copilot CLI uses the login of `copilot login`",
        )
    return [command, credentials]
