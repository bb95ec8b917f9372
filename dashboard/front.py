"""``python -m dashboard.front``: the front door of ``tarock dashboard --workers N``: N
Streamlit server processes on consecutive ports of 127.0.0.1 behind one address, with sticky
sessions (issue 36: one Streamlit process is one interpreter lock, about one core of page
runs; fifty visitors at once need more).

What it does:

* **Starts the workers**: ``PORT+1`` … ``PORT+N`` on 127.0.0.1, each the command after ``--``
  with ``{port}`` replaced (what ``tarock dashboard`` runs for one server). They share one
  ``server.cookieSecret`` (made here, passed in their environment), so a form's XSRF token and
  a referee's login cookie hold on any of them. A worker that exits is started again (after
  ``RESTART_DELAY`` seconds); the store is read-only for all of them.
* **Sticks a browser to one worker**: a page's websocket is its Streamlit session, and its
  uploads and media (downloads, images) are kept by the worker that drew the page. The first
  request of a browser goes to the worker with the fewest open sessions and gets the cookie
  ``tarock_worker``; the browser's later requests and websockets go to that worker while it is
  up. A worker that is down (its health check fails, or a connection to it is refused) gets
  no new requests; its browsers move to another worker, whose new session shows the page
  again from its URL.
* **Relays** HTTP requests (headers, cookies and body as they are; ``Host`` and ``Origin``
  kept, so that Streamlit's same-origin check holds) and the websocket's messages both ways.

``GET /_stcore/health`` answers ``ok`` while at least one worker is up. TLS, ``allowedHosts``
and the address are as for one server (docs/dashboard.md, "More than one server process").
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from tornado import httpclient, httputil, web, websocket

from tarock_logs.report.i18n import negotiate, t

#: the cookie that sticks a browser to its worker
COOKIE = "tarock_worker"
#: seconds between two health checks of every worker
CHECK_EVERY = 1.0
#: seconds before a worker that exited is started again
RESTART_DELAY = 1.0
#: the largest websocket message relayed (Streamlit's own default ``server.maxMessageSize``)
MAX_MESSAGE = 200 * 1024 * 1024
#: request headers not relayed (hop by hop; the body's length is the relayed body's)
_HOP = {
    "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailers",
    "transfer-encoding", "upgrade", "content-length",
}  # fmt: skip


@dataclass
class Worker:
    """One Streamlit server process behind the front door."""

    index: int
    port: int
    argv: list[str]
    env: dict[str, str]
    proc: subprocess.Popen[bytes] | None = None
    up: bool = False
    sessions: int = 0
    started: float = field(default=0.0)

    @property
    def base(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> None:
        self.proc = subprocess.Popen(self.argv, env=self.env)
        self.started = time.monotonic()
        self.up = False

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()


class Pool:
    """The workers, their health, and the choice of a worker for a request."""

    def __init__(self, workers: list[Worker]) -> None:
        self.workers = workers
        self.client = httpclient.AsyncHTTPClient(max_body_size=MAX_MESSAGE)

    def pick(self, cookie: str | None) -> Worker | None:
        """The browser's worker (its cookie's) when it is up, else the worker with the
        fewest open sessions; None when no worker is up."""
        for w in self.workers:  # one that exited is down at once, not at its next check
            if w.up and w.proc is not None and w.proc.poll() is not None:
                w.up = False
        if cookie is not None and cookie.isdigit():
            i = int(cookie)
            if 0 <= i < len(self.workers) and self.workers[i].up:
                return self.workers[i]
        up = [w for w in self.workers if w.up]
        return min(up, key=lambda w: (w.sessions, w.index)) if up else None

    async def check(self) -> None:
        """Check every worker's health; start again a worker that exited."""
        for w in self.workers:
            if w.proc is not None and w.proc.poll() is not None:
                w.up = False
                if time.monotonic() - w.started > RESTART_DELAY:
                    print(f"tarock dashboard: worker {w.index} exited; starting it again",
                          file=sys.stderr, flush=True)  # fmt: skip
                    w.start()
                continue
            try:
                r = await self.client.fetch(
                    f"http://{w.base}/_stcore/health", request_timeout=5, raise_error=False
                )
                w.up = r.code == 200
            except OSError:
                w.up = False

    async def watch(self) -> None:
        while True:
            await self.check()
            await asyncio.sleep(CHECK_EVERY)


def _stick(handler: web.RequestHandler, worker: Worker) -> None:
    if handler.get_cookie(COOKIE) != str(worker.index):
        handler.set_cookie(COOKIE, str(worker.index), httponly=True, samesite="Lax")


class Health(web.RequestHandler):
    """``ok`` while a worker is up (what a supervisor or a load balancer asks)."""

    def initialize(self, pool: Pool) -> None:
        self.pool = pool

    def get(self) -> None:
        if any(w.up for w in self.pool.workers):
            self.write("ok")
        else:
            self.set_status(503)
            self.write("no worker is up")


class Relay(web.RequestHandler):
    """Any HTTP request, relayed to the browser's worker."""

    SUPPORTED_METHODS = ("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS")

    def initialize(self, pool: Pool) -> None:
        self.pool = pool

    def check_xsrf_cookie(self) -> None:  # the workers check their own
        return None

    async def _relay(self) -> None:
        tried: set[int] = set()
        while True:
            worker = self.pool.pick(None if tried else self.get_cookie(COOKIE))
            if worker is not None and worker.index in tried:
                others = [w for w in self.pool.workers if w.up and w.index not in tried]
                worker = min(others, key=lambda w: w.sessions) if others else None
            if worker is None:  # in the visitor's language (their browser's)
                lang = negotiate(self.request.headers.get("Accept-Language"))
                self.set_status(503)
                self.set_header("Content-Type", "text/plain; charset=utf-8")
                self.set_header("Retry-After", "2")
                self.write(
                    t("The dashboard is starting or restarting. Reload the page in a moment.", lang)
                )
                return
            tried.add(worker.index)
            headers = httputil.HTTPHeaders()
            for k, v in self.request.headers.get_all():
                if k.lower() not in _HOP:
                    headers.add(k, v)
            body = self.request.body if self.request.method in ("POST", "PUT", "PATCH") else None
            try:
                r = await self.pool.client.fetch(
                    httpclient.HTTPRequest(
                        f"http://{worker.base}{self.request.uri}",
                        method=self.request.method,
                        headers=headers,
                        body=body,
                        follow_redirects=False,
                        decompress_response=False,
                        allow_nonstandard_methods=True,
                        request_timeout=300,
                    ),
                    raise_error=False,
                )
            except OSError:  # refused: the worker went away; another one serves
                worker.up = False
                continue
            if r.code == 599:  # no connection (tornado's code for it)
                worker.up = False
                continue
            self.set_status(r.code, r.reason)
            for name in ("Content-Type", "Server", "Date"):  # the worker's own, not ours
                self.clear_header(name)
            for k, v in r.headers.get_all():
                if k.lower() not in _HOP:
                    self.add_header(k, v)
            _stick(self, worker)
            if r.body and self.request.method != "HEAD":
                self.write(r.body)
            return

    async def get(self, *_: Any) -> None:
        await self._relay()

    async def head(self, *_: Any) -> None:
        await self._relay()

    async def post(self, *_: Any) -> None:
        await self._relay()

    async def put(self, *_: Any) -> None:
        await self._relay()

    async def delete(self, *_: Any) -> None:
        await self._relay()

    async def patch(self, *_: Any) -> None:
        await self._relay()

    async def options(self, *_: Any) -> None:
        await self._relay()


class Stream(websocket.WebSocketHandler):
    """A page's websocket (its Streamlit session), relayed to the browser's worker."""

    def initialize(self, pool: Pool) -> None:
        self.pool = pool
        self.upstream: websocket.WebSocketClientConnection | None = None
        self.worker: Worker | None = None
        self.pending: list[str | bytes] = []

    def check_origin(self, origin: str) -> bool:  # the worker checks it (Host and Origin kept)
        return True

    def select_subprotocol(self, subprotocols: list[str]) -> str | None:
        # the first is the protocol; Streamlit passes its tokens as the others
        return subprotocols[0] if subprotocols else None

    async def open(self, *_: Any) -> None:
        headers = httputil.HTTPHeaders()
        for name in ("Cookie", "Origin", "Host", "User-Agent", "Accept-Language"):
            value = self.request.headers.get(name)
            if value is not None:
                headers[name] = value
        protocols = [
            p.strip()
            for p in self.request.headers.get("Sec-WebSocket-Protocol", "").split(",")
            if p.strip()
        ]
        cookie = self.get_cookie(COOKIE)
        while True:
            worker = self.pool.pick(cookie)
            if worker is None:
                self.close(1013, "no worker is up")
                return
            try:
                self.upstream = await websocket.websocket_connect(
                    httpclient.HTTPRequest(
                        f"ws://{worker.base}{self.request.uri}",
                        headers=headers,
                        request_timeout=30,
                    ),
                    on_message_callback=self._from_worker,
                    max_message_size=MAX_MESSAGE,
                    subprotocols=protocols or None,
                )
                break
            except (OSError, websocket.WebSocketError, httpclient.HTTPClientError):
                worker.up = False  # gone since its last health check: another one serves
                cookie = None
        self.worker = worker
        worker.sessions += 1
        for m in self.pending:
            await self.upstream.write_message(m, binary=isinstance(m, bytes))
        self.pending = []

    def _from_worker(self, message: str | bytes | None) -> None:
        if message is None:  # the worker closed it: so does the page (it reconnects)
            self.close(1001, "the worker closed the session")
            return
        try:
            self.write_message(message, binary=isinstance(message, bytes))
        except websocket.WebSocketClosedError:
            pass

    async def on_message(self, message: str | bytes) -> None:
        if self.upstream is None:
            self.pending.append(message)
            return
        try:
            await self.upstream.write_message(message, binary=isinstance(message, bytes))
        except websocket.WebSocketClosedError:
            self.close(1001, "the worker closed the session")

    def on_close(self) -> None:
        if self.worker is not None:
            self.worker.sessions = max(0, self.worker.sessions - 1)
            self.worker = None
        if self.upstream is not None:
            self.upstream.close()
            self.upstream = None


def app(pool: Pool) -> web.Application:
    return web.Application(
        [
            (r"/_stcore/health", Health, {"pool": pool}),
            (r"/_stcore/stream", Stream, {"pool": pool}),
            (r"/.*", Relay, {"pool": pool}),
        ],
        websocket_max_message_size=MAX_MESSAGE,
        xsrf_cookies=False,
    )


#: each worker's DuckDB ``memory_limit`` (``TAROCK_READER_MEMORY_LIMIT``) unless the
#: environment sets one: DuckDB's buffer pool keeps copies of store blocks that the operating
#: system's page cache already holds for all workers, and one server's 1 GB default, kept by
#: each of N, grows the tree by ≈ 130 MB a worker at 50 sessions for no CPU saved
#: (docs/performance.md, "More than one server process")
WORKER_READER_MEMORY_LIMIT = "128MB"


def workers_of(argv: list[str], port: int, n: int) -> list[Worker]:
    """``n`` workers on ``port + 1`` … ``port + n``, each running ``argv`` with ``{port}``
    replaced; one cookie secret for all, and each reader's memory limit
    (:data:`WORKER_READER_MEMORY_LIMIT` unless the environment sets one)."""
    env = {
        "TAROCK_READER_MEMORY_LIMIT": WORKER_READER_MEMORY_LIMIT,
        **{k: v for k, v in os.environ.items() if v or k != "TAROCK_READER_MEMORY_LIMIT"},
        "STREAMLIT_SERVER_COOKIE_SECRET": secrets.token_hex(32),
    }
    return [
        Worker(i, port + 1 + i, [a.replace("{port}", str(port + 1 + i)) for a in argv], env)
        for i in range(n)
    ]


async def serve(host: str, port: int, workers: list[Worker]) -> None:
    pool = Pool(workers)
    for w in workers:
        w.start()
    server = app(pool).listen(port, address=host, xheaders=False)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    watch = asyncio.create_task(pool.watch())
    try:
        await stop.wait()
    finally:
        watch.cancel()
        server.stop()
        for w in workers:
            w.stop()
        for w in workers:
            if w.proc is not None:
                try:
                    w.proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    w.proc.kill()


def main(argv: list[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    split = args.index("--") if "--" in args else len(args)
    ap = argparse.ArgumentParser(prog="python -m dashboard.front", description=__doc__)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8501)
    ap.add_argument("--workers", type=int, default=2)
    opts = ap.parse_args(args[:split])
    worker_argv = args[split + 1 :]
    if not worker_argv or not any("{port}" in a for a in worker_argv):
        ap.error("after --: a worker's command with {port} in it")
    asyncio.run(serve(opts.host, opts.port, workers_of(worker_argv, opts.port, opts.workers)))


if __name__ == "__main__":
    main()
