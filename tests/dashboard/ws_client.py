"""A client of Streamlit's own websocket protocol (``/_stcore/stream``, protobuf ``BackMsg`` up,
``ForwardMsg`` down): real sessions of a served dashboard without a browser, for the publish
stress test (``test_publish_stress.py``) and the load benchmark (``benchmarks/dashboard_load.py``).

A :class:`Session` opens a page as a browser's page load does (a ``rerun_script`` with the
page's URL path and query string) and clicks a button by its key (the button's trigger, with
its fragment's id when it sits in a fragment: a fragment run, as the browser sends it). Each
request returns a :class:`Run`: the time from the request sent to the server's
``script_finished`` (the server's work, the script run, and the transfer on the loopback), how
it finished, and the page's text as drawn (every string of every element, by position), so a
caller can read what the visitor would see.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from google.protobuf.message import Message
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Subprotocol

_DONE = {
    ForwardMsg.ScriptFinishedStatus.FINISHED_SUCCESSFULLY: "finished",
    ForwardMsg.ScriptFinishedStatus.FINISHED_FRAGMENT_RUN_SUCCESSFULLY: "finished",
    ForwardMsg.ScriptFinishedStatus.FINISHED_WITH_COMPILE_ERROR: "compile error",
}


@dataclass
class Run:
    """One request's script run as the client saw it."""

    seconds: float
    status: str  # "finished", "compile error", "page not found", "timeout", "closed"
    texts: list[str] = field(default_factory=list)
    exceptions: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # st.error's text
    warnings: list[str] = field(default_factory=list)  # st.warning's text

    @property
    def ok(self) -> bool:
        """Finished, without an exception or an error box."""
        return self.status == "finished" and not self.exceptions and not self.errors

    @property
    def text(self) -> str:
        return "\n".join(self.texts)


def _strings(msg: Message) -> list[str]:
    """Every string field of a protobuf message, depth first (the text an element shows)."""
    out: list[str] = []
    for fd, value in msg.ListFields():
        if fd.type == fd.TYPE_STRING:
            out.extend(value if fd.is_repeated else [value])
        elif fd.type == fd.TYPE_MESSAGE:
            for sub in value if fd.is_repeated else [value]:
                out.extend(_strings(sub))
    return out


class Session:
    """One visitor: a websocket to ``url``'s ``/_stcore/stream``."""

    def __init__(
        self,
        url: str,
        *,
        timeout: float = 120.0,
        texts: bool = True,
        cookies: dict[str, str] | None = None,
    ) -> None:
        self.ws_url = url.replace("http://", "ws://").rstrip("/") + "/_stcore/stream"
        self.timeout = timeout
        #: collect the elements' text (off: only alerts and exceptions, less client work
        #: when the client shares the server's cores, as the load benchmark does)
        self.collect = texts
        #: cookies sent with the websocket's opening request (a browser's, e.g. the front
        #: door's ``tarock_worker``)
        self.cookies = dict(cookies or {})
        self.ws: ClientConnection | None = None
        self.page = ""
        self.query = ""
        #: the elements shown, by their delta path
        self.elements: dict[tuple[int, ...], tuple[str, list[str]]] = {}
        #: the widgets shown: key → (widget id, fragment id)
        self.widgets: dict[str, tuple[str, str]] = {}

    async def connect(self) -> None:
        self.ws = await connect(
            self.ws_url,
            subprotocols=[Subprotocol("streamlit")],
            max_size=None,
            open_timeout=60,
            additional_headers=(
                {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
                if self.cookies
                else None
            ),
        )

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            self.ws = None

    async def open(self, page: str, query: str = "") -> Run:
        """Load ``page`` (its URL path, "" for the default) with ``query`` (``a=1&b=2``)."""
        self.page, self.query = page, query
        msg = BackMsg()
        msg.rerun_script.query_string = query
        msg.rerun_script.page_name = page
        self.elements.clear()
        return await self._request(msg, fragment="")

    async def click(self, key: str) -> Run:
        """Click the button with the key ``key`` (a fragment run when it is in a fragment)."""
        widget_id, fragment = self.widgets[key]
        msg = BackMsg()
        msg.rerun_script.query_string = self.query
        msg.rerun_script.page_name = self.page
        state = msg.rerun_script.widget_states.widgets.add()
        state.id = widget_id
        state.trigger_value = True
        if fragment:
            msg.rerun_script.fragment_id = fragment
        else:
            self.elements.clear()
        return await self._request(msg, fragment=fragment)

    async def _request(self, msg: BackMsg, *, fragment: str) -> Run:
        assert self.ws is not None, "not connected"
        t0 = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        deadline = t0 + self.timeout
        status = "timeout"
        exceptions: list[str] = []
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                break
            try:
                raw = await asyncio.wait_for(self.ws.recv(), left)
            except TimeoutError:
                break
            except Exception:  # noqa: BLE001 - the server went away
                status = "closed"
                break
            fwd = ForwardMsg()
            fwd.ParseFromString(raw if isinstance(raw, bytes) else raw.encode())
            msg_type = fwd.WhichOneof("type")
            if msg_type == "delta":
                self._delta(fwd, exceptions)
            elif msg_type == "page_not_found":
                status = "page not found"
            elif msg_type == "script_finished":
                if fwd.script_finished in _DONE:
                    if status != "page not found":
                        status = _DONE[fwd.script_finished]
                    break
                # FINISHED_EARLY_FOR_RERUN: the script asked for a rerun; the next one follows
        seconds = time.perf_counter() - t0
        run = Run(seconds, status, exceptions=exceptions)
        for path in sorted(self.elements):
            kind, texts = self.elements[path]
            run.texts.extend(texts)
            if kind == "alert_error":
                run.errors.append(" ".join(texts))
            elif kind == "alert_warning":
                run.warnings.append(" ".join(texts))
        return run

    def _delta(self, fwd: ForwardMsg, exceptions: list[str]) -> None:
        delta = fwd.delta
        if delta.WhichOneof("type") != "new_element":
            return
        el = delta.new_element
        kind: str = el.WhichOneof("type") or ""
        body: Any = getattr(el, kind) if kind else None
        texts = (
            _strings(body)
            if body is not None and (self.collect or kind in ("alert", "exception"))
            else []
        )
        if kind == "alert":
            fmt = {1: "error", 2: "warning"}.get(int(body.format), "other")
            kind = f"alert_{fmt}"
        if kind == "exception":
            exceptions.append(f"{body.type}: {body.message}")
        self.elements[tuple(fwd.metadata.delta_path)] = (kind, texts)
        widget_id = getattr(body, "id", "") if body is not None else ""
        if isinstance(widget_id, str) and widget_id.startswith("$$ID-"):
            user_key = widget_id.split("-", 2)[-1]
            self.widgets[user_key] = (widget_id, delta.fragment_id)
