"""Fake agent: prints a secret variable's value in the spellings output really takes, byte by byte."""

from __future__ import annotations

import json
import os
import sys

#: Colour codes as ``grep --color=always`` writes them around a match.
MATCH_ON, MATCH_OFF = "\x1b[01;31m\x1b[K", "\x1b[m\x1b[K"


def spellings(value: str) -> dict[str, str]:
    """Each line the agent prints, by name (``value`` as set, surrounding spaces included)."""
    secret = value.strip()
    grep = f"KEY={MATCH_ON}{secret[:3]}{MATCH_OFF}{secret[3:]}"
    return {
        "raw": f"raw {secret}",
        "as-set": f"as-set [{value}]",
        "json-u": '"' + "".join(f"\\u{ord(char):04x}" for char in secret) + '"',
        "solidus": json.dumps(secret).replace("/", "\\/"),
        "grep": grep,
        "inside": f"{secret[:8]}\x1b[1;32m{secret[8:]}\x1b[0m",
        "json-grep": json.dumps({"text": grep}),
    }


def main() -> None:
    value = os.environ[sys.argv[1]]
    for text in spellings(value).values():
        # One byte per write: the pipe may cut anywhere, inside an escape too.
        for byte in (text + "\n").encode():
            os.write(1, bytes([byte]))


if __name__ == "__main__":
    main()
