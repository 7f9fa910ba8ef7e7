"""Secrets found by their content: provider token shapes, private keys, JWTs, passwords
in URLs and secret-named assignments, each with the kind its redaction names.

Every pattern is written to run in time linear in the text: it starts with a
literal or a look-behind that only lets a run of its own characters begin a
match, and each repeat is a bounded class that its neighbour cannot also
match, so no position is tried more than a constant number of times
(``benchmarks/redaction_bench.py`` measures this on hostile text). Patterns
run on bytes: the redactor hands them text with JSON escapes decoded and
colour codes left out (see :mod:`linewise.render.redaction.redactor`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from typing import Final

__all__ = ["KINDS", "Found", "find_secrets", "looks_secret"]

#: (start, end, kind) of one secret in a text.
Found = tuple[int, int, str]

# A token's own characters: a match may only begin where a run of them begins.
_B64URL: Final = rb"A-Za-z0-9_\-"


def _token(
    prefix: bytes, width: int, body: bytes, *, before: bytes = _B64URL, after: bytes = b""
) -> bytes:
    """``prefix`` (``width`` bytes long) then ``body``, not inside a longer run of ``before``
    characters (nor followed by ``after`` ones).

    The prefix comes first so the engine scans for it quickly; the look-behind after it
    refuses a prefix inside a run, so each run is scanned once.
    """
    behind = rb"(?<![" + before + rb"]" + b"." * width + rb")"
    tail = rb"(?![" + after + rb"])" if after else b""
    return prefix + behind + body + tail


# Shapes from the providers' own documentation of their key formats.
_TOKENS: Final[tuple[tuple[str, bytes], ...]] = (
    ("aws-access-key", _token(rb"A(?:KIA|SIA|BIA|CCA)", 4, rb"[A-Z0-9]{16}", after=rb"A-Z0-9")),
    ("github-token", _token(rb"gh[pousr]_", 4, rb"[A-Za-z0-9]{36,251}", after=rb"A-Za-z0-9_")),
    ("github-token", _token(rb"github_pat_", 11, rb"[A-Za-z0-9_]{22,251}", after=rb"A-Za-z0-9_")),
    ("gitlab-token", _token(rb"glpat-", 6, rb"[A-Za-z0-9_\-]{20,64}")),
    ("slack-token", _token(rb"xox[abeoprs]-", 5, rb"[A-Za-z0-9\-]{10,250}")),
    ("slack-webhook", rb"https://hooks\.slack\.com/services/[A-Za-z0-9/_]{20,120}"),
    ("anthropic-key", _token(rb"sk-ant-", 7, rb"[A-Za-z0-9_\-]{20,250}")),
    ("openai-key", _token(rb"sk-", 3, rb"[A-Za-z0-9_\-]{20,250}")),
    ("stripe-key", _token(rb"[sr]k_live_", 8, rb"[A-Za-z0-9]{10,250}")),
    ("stripe-key", _token(rb"[sr]k_test_", 8, rb"[A-Za-z0-9]{10,250}")),
    ("google-api-key", _token(rb"AIza", 4, rb"[A-Za-z0-9_\-]{35}", after=_B64URL)),
    ("google-oauth-secret", _token(rb"GOCSPX-", 7, rb"[A-Za-z0-9_\-]{28}")),
    ("google-oauth-token", _token(rb"ya29\.", 5, rb"[A-Za-z0-9_\-]{20,2048}")),
    ("huggingface-token", _token(rb"hf_", 3, rb"[A-Za-z0-9]{30,64}", after=rb"A-Za-z0-9_")),
    ("npm-token", _token(rb"npm_", 4, rb"[A-Za-z0-9]{36}", after=rb"A-Za-z0-9_")),
    ("pypi-token", _token(rb"pypi-AgEIcHlwaS5vcmc", 20, rb"[A-Za-z0-9_\-]{50,500}")),
    ("sendgrid-key", _token(rb"SG\.", 3, rb"[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}")),
    ("twilio-key", _token(rb"SK", 2, rb"[0-9a-f]{32}", before=rb"A-Za-z0-9", after=rb"A-Za-z0-9")),
    (
        "telegram-bot-token",
        _token(rb":AA", 3, rb"[A-Za-z0-9_\-]{33}", before=rb"^0-9", after=_B64URL),
    ),
    ("digitalocean-token", _token(rb"do[opr]_v1_", 7, rb"[a-f0-9]{64}")),
    (
        "jwt",
        _token(
            rb"eyJ",
            3,
            rb"[A-Za-z0-9_\-]{8,4096}\.eyJ[A-Za-z0-9_\-]{8,8192}\.[A-Za-z0-9_\-]{0,4096}",
        ),
    ),
)
_TOKEN_PATTERNS: Final = tuple((kind, re.compile(body)) for kind, body in _TOKENS)
# A Telegram bot token's numeric id comes before its ":AA" (looked for backwards, bounded).
_BOT_ID: Final = re.compile(rb"(?<![0-9])[0-9]{8,10}\Z")

# A private key block, from its BEGIN line to its END line (or to the end of the text).
_PEM_BEGIN: Final = re.compile(rb"-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----")
_PEM_END: Final = re.compile(rb"-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----")
_PEM_MAX: Final = 65_536  # longer than any key; a missing END masks no further

# scheme://user:password@host: the password alone. "://" comes first so the engine
# scans for it; neither class holds ':' or '@', so each is looked past once.
_URL_PASSWORD: Final = re.compile(
    rb"://(?<=[A-Za-z0-9]://)[^\s:/?#@\"'<>\\]{1,256}:([^\s/?#@\"'<>\\]{1,256})@"
)

# NAME=value, NAME: value, "name": "value" where the name says it holds a secret. The
# words are looked for in the lower-cased text (same positions), then what follows one
# is matched once: the rest of the name, a separator, and a bounded value that cannot
# hold separators, quotes, brackets or backslashes (a JSON escape ends it).
_SECRET_WORD: Final = re.compile(
    rb"api[_\-]?key|apikey|secret|token|passw(?:or)?d|passwd|pwd|credential|auth[_\-]?key"
    rb"|private[_\-]?key|access[_\-]?key|accountkey|sharedaccesskey"
)
_VALUE: Final = rb"([^\s\"',;<>`\\()\[\]{}]{8,512})"
_ASSIGNED: Final = re.compile(
    rb"[A-Za-z0-9_.\-]{0,24}[\"']?[ \t]{0,4}[:=][ \t]{0,4}[\"']?" + _VALUE
)
# "Authorization: Bearer xyz" or "token xyz": the credential after the word.
_SCHEME: Final = re.compile(rb"bearer[ \t]{1,4}|basic[ \t]{1,4}")
_CREDENTIAL: Final = re.compile(rb"([A-Za-z0-9._~+/\-]{16,4096}=*)")

#: Every kind a redaction may name, in the order they are tried.
KINDS: Final = (
    *(kind for kind, _ in _TOKENS),
    "private-key",
    "url-password",
    "secret-assignment",
    "bearer-token",
)

# Values that name a secret rather than hold one: placeholders, references, examples.
_PLACEHOLDER: Final = re.compile(
    rb"(?i)^(?:[$%<{*\[(]|.*(?:x{4}|\.\.\.|\*\*\*|your[_\-]|example|changeme|placeholder|redacted"
    rb"|dummy|sample|<|>|\$\{|\{\{|process\.env|os\.environ|getenv))"
)


# A name, not a value: module.attribute, self.token (code, not secrets).
_REFERENCE: Final = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*\Z")


def _entropy(value: bytes) -> float:
    """Shannon entropy of ``value`` in bits per byte."""
    counts: dict[int, int] = {}
    for byte in value:
        counts[byte] = counts.get(byte, 0) + 1
    size = len(value)
    return -sum(n / size * math.log2(n / size) for n in counts.values())


def _classes(value: bytes) -> int:
    """How many of lower case, upper case, digits and other characters ``value`` mixes."""
    return (
        any(0x61 <= b <= 0x7A for b in value)
        + any(0x41 <= b <= 0x5A for b in value)
        + any(0x30 <= b <= 0x39 for b in value)
        + any(not (0x30 <= b <= 0x39 or 0x41 <= b <= 0x5A or 0x61 <= b <= 0x7A) for b in value)
    )


def looks_secret(value: bytes) -> bool:
    """True when ``value`` (a value assigned to a secret-named name) looks like a real secret:
    long enough, mixed, random-looking, and not a placeholder or a reference."""
    if len(value) < 8 or value.isdigit() or _PLACEHOLDER.match(value):
        return False
    if b"." in value and _REFERENCE.match(value):
        return False
    digits = any(0x30 <= b <= 0x39 for b in value)
    # Generated secrets mix digits in; a long random run without any is rare but counts.
    if not digits and not (len(value) >= 20 and _entropy(value) >= 4.0):
        return False
    return _classes(value) >= 2 and _entropy(value) >= 3.0


def _random_enough(value: bytes) -> bool:
    """A generic ``sk-`` key, not a word with dashes (``sk-learn-something``)."""
    return _classes(value) >= 2 and any(0x30 <= b <= 0x39 for b in value) and _entropy(value) >= 3.5


def _tokens(text: bytes) -> Iterator[Found]:
    for kind, pattern in _TOKEN_PATTERNS:
        for match in pattern.finditer(text):
            start = match.start()
            if kind == "openai-key" and (
                text.startswith(b"sk-ant-", start) or not _random_enough(match.group()[3:])
            ):
                continue
            if kind == "telegram-bot-token":
                number = _BOT_ID.search(text, max(0, start - 10), start)
                if number is None:
                    continue
                start = number.start()
            yield start, match.end(), kind


def _private_keys(text: bytes) -> Iterator[Found]:
    position = 0
    while (begin := _PEM_BEGIN.search(text, position)) is not None:
        end = _PEM_END.search(text, begin.end(), begin.end() + _PEM_MAX)
        stop = end.end() if end is not None else min(len(text), begin.end() + _PEM_MAX)
        yield begin.start(), stop, "private-key"
        position = stop


def _groups(
    pattern: re.Pattern[bytes], kind: str, keep: Callable[[bytes], bool]
) -> Callable[[bytes], Iterator[Found]]:
    def find(text: bytes) -> Iterator[Found]:
        for match in pattern.finditer(text):
            if keep(match.group(1)):
                yield match.start(1), match.end(1), kind

    return find


def _after_words(
    words: re.Pattern[bytes], value: re.Pattern[bytes], kind: str
) -> Callable[[bytes], Iterator[Found]]:
    """A finder of the ``value`` that follows one of ``words`` (in any case)."""

    def find(text: bytes) -> Iterator[Found]:
        lower = text.lower()
        position = 0
        while (word := words.search(lower, position)) is not None:
            match = value.match(text, word.end())
            if match is None:
                position = word.end()
                continue
            if looks_secret(match.group(1)):
                yield match.start(1), match.end(1), kind
            position = match.end()  # words inside the value are not looked at again

    return find


def _password(value: bytes) -> bool:
    return bool(value) and not _PLACEHOLDER.match(value)


_FINDERS: Final = (
    _private_keys,
    _tokens,
    _groups(_URL_PASSWORD, "url-password", _password),
    _after_words(_SECRET_WORD, _ASSIGNED, "secret-assignment"),
    _after_words(_SCHEME, _CREDENTIAL, "bearer-token"),
)


def find_secrets(text: bytes) -> list[Found]:
    """The secrets in ``text``, in order, none overlapping (a longer, earlier one wins)."""
    found = sorted(
        (item for finder in _FINDERS for item in finder(text)), key=lambda f: (f[0], -f[1])
    )
    kept: list[Found] = []
    for item in found:
        if kept and item[0] < kept[-1][1]:
            if item[1] > kept[-1][1]:
                start, _, kind = kept[-1]
                kept[-1] = (start, item[1], kind)
            continue
        kept.append(item)
    return kept
