"""What every response and request goes through: the policy headers, the host and the token.

Every response carries a strict Content-Security-Policy (only the app's own files
run and load; a page that sets its own, the transcript's, keeps it), and
headers that keep it out of frames and other sites' referrers. On loopback only
requests naming a loopback host are served (another site's page cannot reach
the app through a DNS name pointed at 127.0.0.1). With a token every request
must carry it: ``?token=`` once (it is then kept in a cookie for this host
only), the cookie, or ``Authorization: Bearer``.
"""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import SimpleCookie
from typing import Any, Final
from urllib.parse import parse_qsl, urlencode

__all__ = ["POLICY", "Guarded", "is_loopback"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The policy of every page but the transcript's: the app's own files only.
POLICY: Final = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
COOKIE: Final = "linewise_serve_token"
_HEADERS: Final = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
)
_LOOPBACK_NAMES: Final = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})


def is_loopback(host: str) -> bool:
    """Whether binding to ``host`` keeps the app on this machine."""
    if host.casefold() in _LOOPBACK_NAMES or host.casefold().endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _host_name(value: str) -> str:
    if value.startswith("["):
        return value[: value.find("]") + 1] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


class Guarded:
    """The app behind the checks: ``token`` (None: none asked) and the hosts it answers to.

    ``hosts`` None answers any Host header (the app is bound beyond loopback, and
    the token guards it).
    """

    def __init__(self, app: App, *, token: str | None, hosts: frozenset[str] | None) -> None:
        self.app = app
        self.token = token
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {key.decode("latin-1").lower(): value for key, value in scope["headers"]}
        host = _host_name(headers.get("host", b"").decode("latin-1")).casefold()
        if self.hosts is not None and host not in self.hosts:
            await _refuse(send, 421, "This server answers to loopback host names only.")
            return
        if self.token is not None:
            verdict = self._token_verdict(scope, headers)
            if verdict == "refused":
                await _refuse(
                    send,
                    401,
                    "A token is required: open the address linewise serve printed "
                    "(it ends in ?token=...).",
                )
                return
            if verdict == "from-query":
                await _redirect_keeping(send, scope, self.token)
                return

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = _secured(list(message.get("headers", [])))
            await send(message)

        await self.app(scope, receive, secured)

    def _token_verdict(self, scope: Scope, headers: dict[str, bytes]) -> str:
        assert self.token is not None
        expected = self.token.encode("utf-8")
        authorization = headers.get("authorization", b"")
        if authorization.startswith(b"Bearer ") and hmac.compare_digest(
            authorization[7:].strip(), expected
        ):
            return "ok"
        cookie = SimpleCookie()
        try:
            cookie.load(headers.get("cookie", b"").decode("latin-1"))
        except Exception:  # a malformed cookie header is no token
            cookie = SimpleCookie()
        morsel = cookie.get(COOKIE)
        if morsel is not None and hmac.compare_digest(morsel.value.encode("utf-8"), expected):
            return "ok"
        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
        given = query.get("token")
        if given is not None and hmac.compare_digest(given.encode("utf-8"), expected):
            return "from-query"
        return "refused"


def _secured(headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    names = {key.lower() for key, _ in headers}
    if b"content-security-policy" not in names:
        headers.append((b"content-security-policy", POLICY.encode("ascii")))
    if b"cache-control" not in names:
        headers.append((b"cache-control", b"no-store"))
    headers.extend(_HEADERS)
    return headers


async def _refuse(send: Send, status: int, text: str) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": _secured([(b"content-type", b"text/plain; charset=utf-8")]),
        }
    )
    await send({"type": "http.response.body", "body": (text + "\n").encode("utf-8")})


async def _redirect_keeping(send: Send, scope: Scope, token: str) -> None:
    """The same address without the token, which a cookie now carries (not in history)."""
    query = [
        (key, value)
        for key, value in parse_qsl(scope.get("query_string", b"").decode("latin-1"))
        if key != "token"
    ]
    target = scope.get("path", "/") + ("?" + urlencode(query) if query else "")
    cookie = f"{COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/"
    await send(
        {
            "type": "http.response.start",
            "status": 303,
            "headers": _secured(
                [(b"location", target.encode("latin-1")), (b"set-cookie", cookie.encode("latin-1"))]
            ),
        }
    )
    await send({"type": "http.response.body", "body": b""})
