"""What stands between the browser view and a careless or hostile client: the game master's cookie, a limit
on request bodies enforced before they are read, and the headers that keep pages out of frames, caches and
Referers (docs/web.md "Security")."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

COOKIE = "fracas_gm"
"""The game master's cookie: HttpOnly, SameSite=Strict (no other site sends it), set by the printed link."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class TokenInAddress(Exception):
    """The printed link was opened: set the cookie and redirect to ``clean_url`` (the address without it)."""

    def __init__(self, clean_url: str) -> None:
        super().__init__(clean_url)
        self.clean_url = clean_url


class BodyLimit:
    """Refuse a request body over ``limit`` bytes (``larger``: other limits by exact path) with 413, before
    any of it is parsed: by its Content-Length when it gives one, else while it streams in."""

    def __init__(self, app: ASGIApp, limit: int, larger: dict[str, int] | None = None) -> None:
        self.app = app
        self.limit = limit
        self.larger = larger or {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.larger.get(scope.get("path", ""), self.limit)
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = limit + 1
                if declared > limit:
                    await _too_large(send, limit)
                    return
        seen = 0
        refused = False

        async def counted() -> Message:
            # over the limit: answer 413 at once and tell the app the client left (whatever the app answers
            # to that is dropped), so that no more of the body is read
            nonlocal seen, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    refused = True
                    await _too_large(send, limit)
                    return {"type": "http.disconnect"}
            return message

        async def watched(message: Message) -> None:
            if not refused:
                await send(message)

        try:
            await self.app(scope, counted, watched)
        except Exception:
            if not refused:
                raise


async def _too_large(send: Send, limit: int) -> None:
    body = b'{"error": "the request is larger than %d kB"}' % (limit // 1000)
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


class SecurityHeaders:
    """Every answer: no Referer leaves the page, no frame may hold it, a Content-Security-Policy that allows
    only this server's scripts and the page's own inline scripts (by a nonce per request, in
    ``request.state.csp_nonce``); every answer but the static files: ``Cache-Control: no-store`` (the game
    master's pages hold the fight's secrets)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        nonce = secrets.token_urlsafe(12)
        scope.setdefault("state", {})["csp_nonce"] = nonce
        static = str(scope.get("path", "")).startswith("/static/")
        policy = (
            f"default-src 'self'; script-src 'self' 'nonce-{nonce}'; style-src 'self' 'unsafe-inline'; "
            "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
            "form-action 'self'; object-src 'none'"
        )
        extra = [
            (b"referrer-policy", b"no-referrer"),
            (b"x-frame-options", b"DENY"),
            (b"x-content-type-options", b"nosniff"),
            (b"content-security-policy", policy.encode()),
        ]
        if not static:
            extra.append((b"cache-control", b"no-store"))

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    h for h in message.get("headers", []) if h[0].lower() != b"cache-control" or static
                ]
                message["headers"] = headers + extra
            await send(message)

        await self.app(scope, receive, with_headers)
