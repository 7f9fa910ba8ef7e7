"""The web app: its routes, each answered from the session index (never from a path in a URL)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass
from importlib.resources import files
from typing import Final

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response, StreamingResponse
from starlette.routing import Route

from linewise_serve.filters import FilterError, SessionFilter
from linewise_serve.index import SessionIndex
from linewise_serve.list_page import sessions_page
from linewise_serve.search import SearchIndex
from linewise_serve.search_page import search_page
from linewise_serve.security import Guarded, is_loopback
from linewise_serve.transcript import missing_page, transcript_page
from linewise_serve.usage_page import BREAKDOWNS, PERIODS, usage_page

__all__ = ["LIVE_POLL_SECONDS", "Indexer", "ServeConfig", "make_app"]

logger = logging.getLogger("linewise")

#: How often an open transcript's file is looked at for appended records.
LIVE_POLL_SECONDS: Final = 0.5
_KEEPALIVE_SECONDS: Final = 15.0
#: The app's own files, served by name from the package (no path from the URL reaches disk).
_STATIC: Final = {
    "serve.css": "text/css; charset=utf-8",
    "serve.js": "text/javascript; charset=utf-8",
    "transcript.css": "text/css; charset=utf-8",
    "live.js": "text/javascript; charset=utf-8",
}
_LOOPBACK_HOSTS: Final = frozenset({"localhost", "127.0.0.1", "[::1]", "::1"})


@dataclass(frozen=True, slots=True)
class ServeConfig:
    """Where the app listens (for the host check) and the token every request needs (or None)."""

    host: str = "127.0.0.1"
    token: str | None = None


def _html(text: str, status: int = 200, policy: str | None = None) -> HTMLResponse:
    headers = {"content-security-policy": policy} if policy else None
    return HTMLResponse(text, status_code=status, headers=headers)


class Indexer:
    """Keeps the search index up to date with the session index, in a thread of its own."""

    def __init__(self, index: SessionIndex, search: SearchIndex) -> None:
        self.index = index
        self.search = search
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def catch_up(self) -> int:
        """Index what changed since the last time; returns how many sessions were indexed."""
        with self._lock:
            return self.search.update(self.index.sessions())

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="linewise-search", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.catch_up()
            except Exception:  # the next round tries again; search answers from what it has
                logger.exception("search index update failed")
            self._stop.wait(self.index.refresh_seconds)


def make_app(
    index: SessionIndex,
    config: ServeConfig | None = None,
    *,
    search: SearchIndex | None = None,
    index_in_background: bool = True,
) -> Guarded:
    """The ASGI app serving ``index``'s sessions, behind the policy, host and token checks.

    ``search`` (in memory when None) is kept up to date by a thread started with
    the app, unless ``index_in_background`` is False (the app's ``state.indexer``
    then catches up when told).
    """
    config = config or ServeConfig()
    search = search or SearchIndex(None)
    indexer = Indexer(index, search)
    static = files("linewise_serve").joinpath("static")
    assets = {name: static.joinpath(name).read_bytes() for name in _STATIC}

    def sessions(request: Request) -> Response:
        try:
            keep = SessionFilter.from_query(request.query_params)
        except FilterError as error:
            return _html(
                sessions_page(index.sessions(), SessionFilter(), 1, problem=str(error)), 400
            )
        try:
            page = int(request.query_params.get("page", "1"))
        except ValueError:
            page = 1
        return _html(sessions_page(index.sessions(), keep, page, left_out=index.left_out()))

    def transcript(request: Request) -> Response:
        uid = request.path_params["uid"]
        listed = index.get(uid)
        if listed is None:
            return _html(missing_page(uid), 404)
        before, after = index.neighbours(uid)
        page = transcript_page(listed, before, after)
        return _html(page.html, policy=page.policy)

    async def events(request: Request) -> Response:
        listed = index.get(request.path_params["uid"])
        if listed is None:
            return Response("no such session\n", 404, media_type="text/plain")
        return StreamingResponse(
            _changes(request, listed.info.path),
            media_type="text/event-stream",
            headers={"cache-control": "no-store", "x-accel-buffering": "no"},
        )

    def find(request: Request) -> Response:
        text = request.query_params.get("q", "")[:500]
        hits = search.search(text) if text.strip() else []
        return _html(
            search_page(text, hits, index, indexed=search.indexed(), total=len(index.sessions()))
        )

    def usage(request: Request) -> Response:
        period = request.query_params.get("period", "daily")
        breakdown = request.query_params.get("by", "model")
        if period not in PERIODS or breakdown not in BREAKDOWNS:
            return Response(
                f"period is one of {', '.join(PERIODS)}; by is one of {', '.join(BREAKDOWNS)}\n",
                400,
                media_type="text/plain",
            )
        return _html(usage_page(index.sessions(), period, breakdown))

    def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in assets:
            return Response("not found\n", 404, media_type="text/plain")
        return Response(
            assets[name], media_type=_STATIC[name], headers={"cache-control": "no-cache"}
        )

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        if index_in_background:
            indexer.start()
        try:
            yield
        finally:
            indexer.stop()

    app = Starlette(
        routes=[
            Route("/", sessions),
            Route("/search", find),
            Route("/usage", usage),
            Route("/s/{uid}", transcript),
            Route("/s/{uid}/events", events),
            Route("/static/{name}", asset),
            # No icon (the browser asks for one on every first visit): nothing, not a 404.
            Route("/favicon.ico", lambda _: Response(status_code=204)),
        ],
        lifespan=lifespan,
    )
    app.state.index = index
    app.state.indexer = indexer
    hosts = (_LOOPBACK_HOSTS | {config.host.casefold()}) if is_loopback(config.host) else None
    return Guarded(app, token=config.token, hosts=hosts)


def _stamp(path: str) -> tuple[int, int] | None:
    try:
        status = os.stat(path)
    except OSError:
        return None
    return status.st_size, status.st_mtime_ns


async def _changes(request: Request, path: str) -> AsyncIterator[str]:
    """Server-sent events: ``changed`` each time the session's file is written."""
    last = _stamp(path)
    yield "retry: 2000\n\n"
    quiet = 0.0
    while not await request.is_disconnected():
        await asyncio.sleep(LIVE_POLL_SECONDS)
        now = _stamp(path)
        if now != last:
            last = now
            quiet = 0.0
            yield f"event: changed\ndata: {now[0] if now else 0}\n\n"
        else:
            quiet += LIVE_POLL_SECONDS
            if quiet >= _KEEPALIVE_SECONDS:
                quiet = 0.0
                yield ": still here\n\n"
