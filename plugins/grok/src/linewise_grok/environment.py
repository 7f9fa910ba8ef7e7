"""Whether the Grok Build CLI can run here: the command on PATH and its credentials."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from linewise_contracts.environment import EnvironmentCheck

__all__ = ["GROK_COMMAND", "check_environment"]

#: The command the adapter runs.
GROK_COMMAND: Final = "grok"
_API_KEY: Final = "XAI_API_KEY"


def _installed_off_path(environ: Mapping[str, str]) -> str | None:
    # The vendor installer puts the binary in ~/.grok/bin (or $GROK_BIN_DIR),
    # which is often not on PATH.
    import shutil
    from pathlib import Path

    home = environ.get("HOME", "")
    folder = environ.get("GROK_BIN_DIR") or (str(Path(home, ".grok", "bin")) if home else "")
    return shutil.which(GROK_COMMAND, path=folder) if folder else None


def check_environment(environ: Mapping[str, str] | None = None) -> list[EnvironmentCheck]:
    """Check that ``grok`` is on PATH and whether an xAI API key is set.

    ``environ`` defaults to the process environment; its ``PATH`` is searched.
    A missing command is an error. A missing ``XAI_API_KEY`` is only a warning:
    Grok can use the account of a ``grok login`` instead.
    """
    # Imported here, not with the plugin: rendering a log never checks the environment.
    import shutil
    from pathlib import Path

    from linewise_contracts.environment import EnvironmentCheck, variable_check

    env = os.environ if environ is None else environ
    checks: list[EnvironmentCheck] = []
    found = shutil.which(GROK_COMMAND, path=env.get("PATH", ""))
    if found:
        checks.append(
            EnvironmentCheck(
                code="grok_command_found",
                level="info",
                message=f"Grok CLI found: {found}",
            )
        )
    else:
        elsewhere = _installed_off_path(env)
        checks.append(
            EnvironmentCheck(
                code="grok_command_missing",
                level="error",
                message=f"Grok CLI {GROK_COMMAND!r} not found on PATH",
                detail=f"installed at {elsewhere}, which is not on PATH" if elsewhere else None,
                hint=(
                    f"Add {Path(elsewhere).parent} to PATH"
                    if elsewhere
                    else "Install Grok Build (https://x.ai/cli/install.sh), then run `grok login`"
                ),
            )
        )
    checks.append(
        variable_check(
            _API_KEY,
            environ=env,
            present_code="grok_api_key_present",
            present_message=f"{_API_KEY} is set: Grok authenticates with the API key",
            missing_code="grok_api_key_missing",
            missing_message=f"{_API_KEY} is not set",
            missing_detail="Grok can still run with the account of a previous `grok login`.",
            hint=f"Run `grok login` (or `grok login --device-code`), or set {_API_KEY}",
        )
    )
    return checks
