"""The page's stylesheet and script, shipped as package files, and the policy that pins them."""

from __future__ import annotations

import base64
import hashlib
from functools import cache
from importlib.resources import files

__all__ = ["page_assets"]


def _source_hash(source: str) -> str:
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


@cache
def page_assets() -> tuple[str, str, str]:
    """``(css, js, content_security_policy)``, read once from ``page.css`` and ``page.js``.

    Nothing may load: no fetch, image, font, frame or form target. Only the two
    inline blocks run, pinned by hash, so even markup that slipped past
    escaping could neither execute a script nor reach the network.
    """
    package = files(__package__ or "linewise.render.html")
    css = package.joinpath("page.css").read_text(encoding="utf-8")
    js = package.joinpath("page.js").read_text(encoding="utf-8")
    policy = (
        "default-src 'none'; "
        f"style-src {_source_hash(css)}; "
        f"script-src {_source_hash(js)}; "
        "base-uri 'none'; form-action 'none'"
    )
    return css, js, policy
