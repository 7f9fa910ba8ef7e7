"""Simple contract ranges (``>=1.1,<2``) decided exactly without importing ``packaging``.

Every first-party plugin declares ``linewise-contracts>=1.1,<2``; importing
``packaging`` to read that costs more than the rest of ``linewise list``. This
module decides requirements written in a small grammar (a name, optional
extras, comparisons of plain release numbers, at most an ``extra == "x"``
marker) against a plain release host contract, and gives up (None) on
anything else, which :func:`linewise_contracts.versioning.check_contract`
then decides with ``packaging``. Both give the same decision, word for word
(a property test holds them to it). Plain string operations only: no regex
runs on a plugin's metadata.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

from linewise_contracts.versioning import CONTRACTS_DISTRIBUTION, GateDecision

__all__ = ["decide_simple"]

Release = tuple[int, ...]

# Longest operators first: ">=" must not be read as ">" followed by "=1.1".
_OPERATORS: Final[tuple[str, ...]] = ("==", "!=", "<=", ">=", "<", ">")
_TESTS: Final[dict[str, Callable[[Release, Release], bool]]] = {
    "==": lambda host, bound: host == bound,
    "!=": lambda host, bound: host != bound,
    "<=": lambda host, bound: host <= bound,
    ">=": lambda host, bound: host >= bound,
    "<": lambda host, bound: host < bound,
    ">": lambda host, bound: host > bound,
}
_OPERATOR_ORDER: Final = {"~": 0, "=": 0, ">": 1, "<": 2, "!": 3}
_NAME_CHARS: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")


def _release(text: str) -> Release | None:
    """``1.2.0`` as (1, 2) (trailing zeros dropped, as PEP 440 compares); None if not plain."""
    parts = text.split(".")
    if not all(part and part.isascii() and part.isdigit() for part in parts):
        return None
    numbers = [int(part) for part in parts]
    while len(numbers) > 1 and numbers[-1] == 0:
        numbers.pop()
    return tuple(numbers)


def _is_name(text: str) -> bool:
    return bool(text) and text[0].isalnum() and text[-1].isalnum() and set(text) <= _NAME_CHARS


def _canonical(name: str) -> str:
    out: list[str] = []
    for char in name.lower():
        replaced = "-" if char in "-_." else char
        if not (replaced == "-" and out and out[-1] == "-"):
            out.append(replaced)
    return "".join(out)


def _split_name(text: str) -> tuple[str, str]:
    end = 0
    while end < len(text) and text[end] in _NAME_CHARS:
        end += 1
    return text[:end], text[end:].strip()


class _Requirement:
    """One requirement on the contracts distribution in the simple grammar."""

    def __init__(self, raw: str, specifiers: list[tuple[str, str, Release]], applies: bool) -> None:
        self.raw = raw
        self.specifiers = specifiers  # (operator, version as written, release)
        self.applies = applies

    def range_text(self) -> str:
        """The range as the contract's gate words it: what follows the name, lower bounds first."""
        _, rest = _split_name(self.raw.split(";", 1)[0].lstrip())
        if rest.startswith("(") and rest.endswith(")"):
            rest = rest[1:-1].strip()
        parts = sorted(
            (part.strip() for part in rest.split(",") if part.strip()),
            key=lambda part: _OPERATOR_ORDER.get(part[:1], 4),
        )
        return ",".join(parts) or "any version"


def _marker_applies(marker: str) -> bool | None:
    """``extra == "test"`` applies to no plain install (False); anything else: None."""
    left, equals, right = marker.partition("==")
    value = right.strip()
    if left.strip() != "extra" or not equals or len(value) < 3:
        return None
    quote = value[0]
    if quote not in "'\"" or value[-1] != quote or not _is_name(value[1:-1]):
        return None
    return False


def _specifiers(text: str) -> list[tuple[str, str, Release]] | None:
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    if not text:
        return []
    found: list[tuple[str, str, Release]] = []
    for written in text.split(","):
        part = written.strip()
        operator = next((op for op in _OPERATORS if part.startswith(op)), None)
        if operator is None:
            return None
        version = part[len(operator) :].strip()
        release = _release(version)
        if release is None:
            return None
        found.append((operator, version, release))
    return found


def _parse(raw: str) -> _Requirement | None:
    text, semicolon, marker = raw.partition(";")
    applies = True
    if semicolon:
        marker_applies = _marker_applies(marker)
        if marker_applies is None:
            return None
        applies = marker_applies
    name, rest = _split_name(text.strip())
    if not _is_name(name):
        return None
    if rest.startswith("["):
        extras, closing, rest = rest[1:].partition("]")
        if not closing or not all(_is_name(extra.strip()) for extra in extras.split(",")):
            return None
        rest = rest.strip()
    specifiers = _specifiers(rest)
    if specifiers is None:
        return None
    return _Requirement(raw, specifiers, applies)


def _is_ours(raw: str) -> bool:
    name, _ = _split_name(raw.lstrip())
    return bool(name) and name[0].isalnum() and _canonical(name) == CONTRACTS_DISTRIBUTION


def decide_simple(requires: Iterable[str] | None, host_contract: str) -> GateDecision | None:
    """The gate's decision when every contract requirement is simple, else None."""
    host = _release(host_contract)
    if host is None or host_contract != ".".join(str(int(p)) for p in host_contract.split(".")):
        return None  # pre-releases and unusual spellings: packaging decides
    ours = [text for text in requires or () if _is_ours(text)]
    if not ours:
        return GateDecision("undeclared", None, "no linewise-contracts requirement (grace period)")
    parsed = [_parse(text) for text in ours]
    if any(requirement is None for requirement in parsed):
        return None
    applicable = [r for r in parsed if r is not None and r.applies]
    if not applicable:
        return GateDecision(
            "undeclared", None, "linewise-contracts is required only conditionally (grace period)"
        )
    texts = [r.range_text() for r in applicable]
    declared = " ; ".join(texts) if len(texts) > 1 else texts[0]
    specifiers: dict[tuple[str, Release], str] = {}
    for operator, version, release in (s for r in applicable for s in r.specifiers):
        written = specifiers.setdefault((operator, release), f"{operator}{version}")
        if written != f"{operator}{version}":
            return None  # `<2` and `<2.0` together: packaging keeps one of them
    if not specifiers:
        return GateDecision("compatible", declared, "declared without a version range")
    shown = ",".join(sorted(specifiers.values()))
    if all(_TESTS[operator](host, bound) for operator, bound in specifiers):
        return GateDecision("compatible", declared, f"contract {host_contract} is inside {shown}")
    return GateDecision(
        "incompatible",
        declared,
        f"declares linewise-contracts{shown}, which excludes this host's contract {host_contract}",
    )
