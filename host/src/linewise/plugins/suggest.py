"""What to say when nothing serves a named adapter type: a close name, or what to install."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from linewise.settings.errors import UnknownAdapterError

__all__ = ["FIRST_PARTY", "unknown_adapter", "unknown_adapter_message"]

#: The adapter types of linewise's first-party plugins and the distribution serving each.
FIRST_PARTY: Final[Mapping[str, str]] = {
    "acp": "linewise-acp",
    "agy_local": "linewise-antigravity",
    "amp_local": "linewise-amp",
    "amp_session": "linewise-amp",
    "claude_local": "linewise-claude",
    "claude_session": "linewise-claude",
    "claude_subagent": "linewise-claude",
    "cline_local": "linewise-cline",
    "codex_local": "linewise-codex",
    "codex_app_server": "linewise-codex",
    "codex_session": "linewise-codex",
    "copilot_local": "linewise-copilot",
    "copilot_session": "linewise-copilot",
    "copilot_history": "linewise-copilot",
    "cursor": "linewise-cursor",
    "cursor_cloud": "linewise-cursor",
    "cursor_session": "linewise-cursor",
    "droid_local": "linewise-droid",
    "droid_session": "linewise-droid",
    "gemini_local": "linewise-gemini",
    "gemini_session": "linewise-gemini",
    "goose_local": "linewise-goose",
    "goose_session": "linewise-goose",
    "grok_local": "linewise-grok",
    "grok_session": "linewise-grok",
    "hermes_local": "linewise-hermes",
    "hermes_session": "linewise-hermes",
    "kimi_local": "linewise-kimi",
    "kimi_session": "linewise-kimi",
    "model_stream": "linewise-segments",
    "model_stream_json": "linewise-segments",
    "model_stream_sentinel": "linewise-segments",
    "opencode_local": "linewise-opencode",
    "openhands_local": "linewise-openhands",
    "openhands_session": "linewise-openhands",
    "opencode_session": "linewise-opencode",
    "paperclip_runner": "linewise-paperclip-runner",
    "pi_local": "linewise-pi",
    "pi_session": "linewise-pi",
    "qwen_session": "linewise-qwen",
    "qwen_local": "linewise-qwen",
    "rush_session": "linewise-rush",
    "tally_local": "linewise-tally",
    "vibe_local": "linewise-vibe",
    "vibe_session": "linewise-vibe",
}


def _close(name: str, choices: Sequence[str]) -> list[str]:
    import difflib  # only when someone mistyped a name

    # The closest name only: "_local" suffixes make many names look alike.
    # Names are at most 64 characters (the contract's limit) in a short list: cheap.
    return difflib.get_close_matches(name[:64].lower(), choices, n=1, cutoff=0.6)


def unknown_adapter_message(adapter_type: str, known: Sequence[str]) -> str:
    """The error message for ``adapter_type`` when only ``known`` are installed.

    A first-party adapter type that is not installed names its distribution
    (``pip install linewise-codex``); a mistyped name gets "did you mean"
    (installed names first, then first-party ones with what to install).
    """
    listing = ", ".join(known) if known else "none"
    text = f"unknown adapter type {adapter_type!r}; installed: {listing}."
    distribution = FIRST_PARTY.get(adapter_type)
    if distribution is not None:
        return (
            f"adapter type {adapter_type!r} is not installed: it comes with {distribution} "
            f"(pip install {distribution}); installed: {listing}."
        )
    near = _close(adapter_type, list(known))
    if near:
        return f"{text} Did you mean {' or '.join(repr(n) for n in near)}?"
    elsewhere = _close(adapter_type, [t for t in FIRST_PARTY if t not in known])
    if elsewhere:
        options = " or ".join(f"{n!r} (pip install {FIRST_PARTY[n]})" for n in elsewhere)
        return f"{text} Did you mean {options}?"
    return f"{text} Run `linewise list` to see every discovered parser."


def unknown_adapter(adapter_type: str, known: list[str]) -> UnknownAdapterError:
    """The :class:`UnknownAdapterError` to raise: its message suggests a close name or what
    to install (:func:`unknown_adapter_message`)."""
    return UnknownAdapterError(adapter_type, known, unknown_adapter_message(adapter_type, known))
