"""The web app: the game master's view, the players' view and the JSON API behind them (FastAPI + Jinja2).

Pages are drawn on the server; a little JavaScript (static/*.js, no build step) posts actions and redraws the
fight when its log moves on (short polling of ``/api/fights/{id}/version``). Every change needs the game
master's token: API clients send it in the ``X-Fracas-Token`` header; a browser opens the printed link
once (``?token=``), which sets an HttpOnly, SameSite=Strict cookie and redirects to the same page without
the token, so the token never stays in an address, a history or a Referer. Every input is checked on the
server and a refused one changes nothing; request bodies are limited before they are read (``BodyLimit``).
"""

from __future__ import annotations

import asyncio
import json
import secrets
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from fastapi import Depends, FastAPI, File, HTTPException, Request, UploadFile
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from fracas import __version__
from fracas.engine import encounter as enc
from fracas.errors import EncounterFileError, FracasError, RuleNotImplemented, UsageError
from fracas.store.book import FacesNeeded, FightBook
from fracas.store.fights import StaleFight, check_id
from fracas.store.session import MAX_NAME, FightService
from fracas.web.guard import COOKIE, BodyLimit, SecurityHeaders, TokenInAddress
from fracas.web.views import gm_view, player_view

HERE = Path(__file__).parent
BUILDER_DEFAULTS: dict[str, dict[str, tuple[str, ...]]] = {
    # heroes (players) against monsters, as in each ruleset's bundled examples
    "ed4": {"heroes": ("mica", "thrak"), "monsters": ("ghoul", "ghoul")},
    "ed1": {"heroes": ("thom-hammerblade",), "monsters": ("ork-raider", "ork-raider")},
    "gurps4": {"heroes": ("swordsman", "swordsman"), "monsters": ("axeman", "spearman")},
    "sas": {"heroes": ("fighter", "priest"), "monsters": ("goblin", "goblin")},
}
MAX_UPLOAD = 1_000_000
MAX_BODY = 1_000_000  # any request body, checked before it is read
MAX_IMPORT = 20_000_000  # an exported fight: its whole log


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DiceIn(_Strict):
    """How to roll: on the server, or the faces of a physical roll typed in (in the order rolled)."""

    mode: Literal["server", "typed"] = "server"
    faces: list[StrictInt] = Field(default_factory=list, max_length=500)


class ActionIn(_Strict):
    expected: StrictInt | None = None
    dice: DiceIn = Field(default_factory=DiceIn)


class CommandIn(ActionIn):
    command: dict[str, Any]
    to: list[StrictInt] | None = None  # a hex picked on the map: the server finds the path there


class PlainIn(_Strict):
    expected: StrictInt | None = None


class OverrideIn(_Strict):
    expected: StrictInt | None = None
    override: dict[str, Any]


class RenameIn(_Strict):
    name: str = Field(min_length=1, max_length=MAX_NAME)


class CreateIn(_Strict):
    encounter: dict[str, Any]
    seed: StrictInt | None = Field(default=None, ge=1, le=2**62)


STREAM_CHECK = 2.0  # seconds between looks at the store for another process's actions
STREAM_KEEPALIVE = 15.0


class Changes:
    """Wakes the open event streams of a fight when an action through this server changed it (actions run in
    worker threads; the streams wait on the event loop)."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiting: dict[str, set[asyncio.Future[None]]] = {}

    def notify(self, fight_id: str) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake, fight_id)

    def _wake(self, fight_id: str) -> None:
        for f in self._waiting.pop(fight_id, set()):
            if not f.done():
                f.set_result(None)

    async def wait(self, fight_id: str, timeout: float) -> float:
        """Until the fight changes or ``timeout`` passes; how long it waited."""
        loop = self._loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        waiting = self._waiting.setdefault(fight_id, set())
        waiting.add(future)
        start = loop.time()
        try:
            await asyncio.wait_for(future, timeout)
        except TimeoutError:
            pass
        finally:
            waiting.discard(future)
        return loop.time() - start


@lru_cache(maxsize=64)
def qr_data_uri(url: str) -> str:
    """The players' link as a QR code (an SVG data URI) for the game master's page: phones scan it."""
    import segno

    return str(segno.make(url, error="m").svg_data_uri(scale=4, border=2))


def _faces(dice: DiceIn) -> list[int] | None:
    return None if dice.mode == "server" else list(dice.faces)


def _error(status: int, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": message, **extra}, status_code=status)


def create_app(service: FightService, token: str, *, players_only: bool = False) -> FastAPI:
    """The app for one store; ``token`` is the game master's secret. ``players_only``: the players' view and
    nothing else (no game master's page or action exists on it), for ``fracas serve --players-host``."""
    app = FastAPI(title="fracas", version=__version__, docs_url=None, redoc_url=None, openapi_url=None)
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    app.state.service = service
    app.state.token = token
    changes = app.state.changes = Changes()
    app.add_middleware(SecurityHeaders)
    app.add_middleware(BodyLimit, limit=MAX_BODY, larger={"/api/fights/import": MAX_IMPORT})

    def given_token(request: Request) -> str:
        return request.headers.get("x-fracas-token") or request.cookies.get(COOKIE) or ""

    def is_gm(request: Request) -> bool:
        return not players_only and secrets.compare_digest(given_token(request).encode(), token.encode())

    def gm_only(request: Request) -> None:
        if players_only:
            raise HTTPException(404, "not found")
        in_address = request.query_params.get("token")
        if in_address is not None and request.method == "GET" and not request.url.path.startswith("/api/"):
            # the printed link: trade the token in the address for the cookie, then show the clean address
            if secrets.compare_digest(in_address.encode(), token.encode()):
                clean = request.url.remove_query_params("token")
                raise TokenInAddress(clean.path + (f"?{clean.query}" if clean.query else ""))
            raise HTTPException(403, "the game master's token is wrong: use the printed link")
        if not is_gm(request):
            raise HTTPException(403, "the game master's token is missing or wrong: use the printed link")

    _error_handlers(app, token)

    def book_of(fight_id: str) -> FightBook:
        check_id(fight_id)
        if not service.store.exists(fight_id):
            raise HTTPException(404, f"no saved fight with id {fight_id!r}")
        return service.book(fight_id)

    # (an unknown fight id surfaces as "no saved fight ...": 404 through the FracasError handler)
    def gm_of(fight_id: str, with_log: bool = True) -> dict[str, Any]:
        return service.view(fight_id, lambda b: gm_view(b, with_log=with_log))

    def player_of(fight_id: str) -> dict[str, Any]:
        return service.view(fight_id, player_view)

    _page_routes(app, service, templates, gm_only, is_gm, gm_of, player_of)

    _reading_routes(app, service, changes, gm_only, is_gm, gm_of, player_of, book_of)

    # ----- changing ---------------------------------------------------------------------------------
    def done(book: FightBook, plan: Any) -> JSONResponse:
        changes.notify(book.record.id)
        return JSONResponse({"status": "ok", "seq": plan.seq, "what": plan.what, "events": len(plan.events)})

    _change_routes(app, service, gm_only, done, changes)
    _create_routes(app, service, gm_only)
    return app


def _reading_routes(
    app: FastAPI,
    service: FightService,
    changes: Changes,
    gm_only: Any,
    is_gm: Any,
    gm_of: Any,
    player_of: Any,
    book_of: Any,
) -> None:
    """Reading: the fights, a fight's version and its stream, the game master's and the players' views,
    an export, the rulesets."""

    @app.get("/api/fights", dependencies=[Depends(gm_only)])
    def list_fights() -> Any:
        return [
            {"id": f.id, "name": f.name, "ruleset": f.ruleset, "status": f.status, "updated": f.updated}
            for f in service.store.fights()
        ]

    players_versions: dict[str, tuple[int, int]] = {}  # fight -> (log position, the players' version)

    def players_seq(fight_id: str) -> int:
        """The players' version of a fight: it moves only when what they see moves (an action of a hidden
        combatant leaves it as it was), computed once per log position."""
        last = service.store.last_seq(fight_id)
        known = players_versions.get(fight_id)
        if known is not None and known[0] == last:
            return known[1]
        number = int(player_of(fight_id)["seq"])
        players_versions[fight_id] = (last, number)
        return number

    def version_of(request: Request, fight_id: str) -> int:
        """The game master's views: the log position. Anyone else: the players' version."""
        check_id(fight_id)
        return service.store.last_seq(fight_id) if is_gm(request) else players_seq(fight_id)

    @app.get("/api/fights/{fight_id}/version")
    def version(request: Request, fight_id: str) -> Any:
        return {"seq": version_of(request, fight_id)}

    _stream_route(app, service, changes, version_of)

    @app.get("/api/fights/{fight_id}/gm", dependencies=[Depends(gm_only)])
    def gm_json(fight_id: str, log: bool = True) -> Any:
        return JSONResponse(gm_of(fight_id, with_log=log))

    @app.get("/api/fights/{fight_id}/player")
    def player_json(fight_id: str) -> Any:
        return JSONResponse(player_of(fight_id))

    @app.get("/api/fights/{fight_id}/export", dependencies=[Depends(gm_only)])
    def export(fight_id: str) -> Any:
        book_of(fight_id)
        data = service.export(fight_id)
        return JSONResponse(
            data, headers={"Content-Disposition": f'attachment; filename="{fight_id}.fracas.json"'}
        )

    @app.get("/api/rulesets", dependencies=[Depends(gm_only)])
    def list_rulesets() -> Any:
        return _rulesets()


def _error_handlers(app: FastAPI, token: str) -> None:
    """The printed link's token traded for the cookie; every error one clear sentence, never a traceback."""

    @app.exception_handler(TokenInAddress)
    async def _to_cookie(request: Request, exc: TokenInAddress) -> Response:
        response = RedirectResponse(exc.clean_url, status_code=303)
        response.set_cookie(COOKIE, token, httponly=True, samesite="strict", path="/")
        return response

    # ----- errors: one clear sentence, never a traceback --------------------------------------------
    @app.exception_handler(HTTPException)
    async def _http(request: Request, exc: HTTPException) -> Response:
        if request.url.path.startswith("/api/"):
            return _error(exc.status_code, str(exc.detail))
        return HTMLResponse(_page_error(exc.status_code, str(exc.detail)), status_code=exc.status_code)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        parts = []
        for err in exc.errors()[:5]:
            loc = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "request"
            parts.append(f"{loc}: {err.get('msg', 'invalid')}")
        return _error(400, "malformed request: " + "; ".join(parts))

    @app.exception_handler(StaleFight)
    async def _stale(request: Request, exc: StaleFight) -> Response:
        return _error(409, str(exc))

    @app.exception_handler(FacesNeeded)
    async def _need(request: Request, exc: FacesNeeded) -> Response:
        need = {
            "sides": exc.sides,
            "why": exc.why,
            "used": exc.used,
            "context": exc.context,
            "asked": [{"sides": s, "why": w, "face": f} for s, w, f in exc.asked],
            "explodes": exc.explodes,
        }
        return JSONResponse({"status": "need", "message": str(exc), "need": need})

    @app.exception_handler(FracasError)
    async def _refused(request: Request, exc: FracasError) -> Response:
        status = 404 if str(exc).startswith("no saved fight") else 400
        if request.url.path.startswith("/api/"):
            return _error(status, str(exc))
        return HTMLResponse(_page_error(status, str(exc)), status_code=status)

    @app.exception_handler(Exception)
    async def _internal(request: Request, exc: Exception) -> Response:
        return _error(500, f"internal error (nothing was changed): {type(exc).__name__}: {exc}")


def _page_routes(
    app: FastAPI,
    service: FightService,
    templates: Jinja2Templates,
    gm_only: Any,
    is_gm: Any,
    gm_of: Any,
    player_of: Any,
) -> None:
    """The pages: the index, the game master's and the players' views of a fight, the builder."""

    # ----- pages ------------------------------------------------------------------------------------
    @app.get("/", response_class=HTMLResponse)
    def index(request: Request) -> Response:
        if request.query_params.get("token") is not None:
            gm_only(request)  # the printed link: cookie, then the clean address
        gm = is_gm(request)
        # without the token nothing is listed: a player opens the link the game master gives him
        fights = service.store.fights() if gm else []
        return templates.TemplateResponse(request, "index.html", {"fights": fights, "gm": gm})

    def players_link(request: Request, fight_id: str) -> dict[str, str]:
        """The players' link (on ``--players-host`` when given) and its QR code, for the GM page."""
        base = getattr(app.state, "players_base", None) or str(request.base_url).rstrip("/")
        link = f"{base}/view/{fight_id}"
        return {"link": link, "qr": qr_data_uri(link)}

    @app.get("/gm/{fight_id}", response_class=HTMLResponse, dependencies=[Depends(gm_only)])
    def gm_page(request: Request, fight_id: str) -> Response:
        view = gm_of(fight_id)
        context = {"v": view, "players": players_link(request, fight_id)}
        return templates.TemplateResponse(request, "gm.html", context)

    @app.get("/gm/{fight_id}/fragment", response_class=HTMLResponse, dependencies=[Depends(gm_only)])
    def gm_fragment(request: Request, fight_id: str) -> Response:
        view = gm_of(fight_id)
        context = {"v": view, "players": players_link(request, fight_id)}
        return templates.TemplateResponse(request, "_gm_fight.html", context)

    @app.get("/view/{fight_id}", response_class=HTMLResponse)
    def player_page(request: Request, fight_id: str) -> Response:
        view = player_of(fight_id)
        return templates.TemplateResponse(request, "player.html", {"v": view})

    @app.get("/view/{fight_id}/fragment", response_class=HTMLResponse)
    def player_fragment(request: Request, fight_id: str) -> Response:
        view = player_of(fight_id)
        return templates.TemplateResponse(request, "_player_fight.html", {"v": view})

    @app.get("/new", response_class=HTMLResponse, dependencies=[Depends(gm_only)])
    def new_page(request: Request) -> Response:
        return templates.TemplateResponse(request, "new.html", {"rulesets_json": json.dumps(_rulesets())})


def _change_routes(app: FastAPI, service: FightService, gm_only: Any, done: Any, changes: Changes) -> None:
    """The game master's actions on a fight: a command, the tactic's choice, advancing, undo and redo."""

    @app.post("/api/fights/{fight_id}/command", dependencies=[Depends(gm_only)])
    def command(fight_id: str, body: CommandIn) -> Any:
        faces = _faces(body.dice)

        def planner(b: Any) -> Any:
            posted = body.command
            if body.to is not None:
                args = dict(posted.get("args") or {}) if isinstance(posted.get("args"), dict) else {}
                args["path"] = b.path_to(str(posted.get("actor", "")), body.to)
                args.pop("after", None)
                posted = {**posted, "args": args}
            return b.plan_command(b.find_choice(posted), faces)

        book, plan = service.act(fight_id, planner, body.expected)
        return done(book, plan)

    @app.post("/api/fights/{fight_id}/tactic", dependencies=[Depends(gm_only)])
    def tactic(fight_id: str, body: ActionIn) -> Any:
        faces = _faces(body.dice)
        book, plan = service.act(fight_id, lambda b: b.plan_tactic(faces), body.expected)
        return done(book, plan)

    @app.post("/api/fights/{fight_id}/advance", dependencies=[Depends(gm_only)])
    def advance(fight_id: str, body: ActionIn) -> Any:
        faces = _faces(body.dice)
        book, plan = service.act(fight_id, lambda b: b.plan_advance(faces), body.expected)
        return done(book, plan)

    @app.post("/api/fights/{fight_id}/round", dependencies=[Depends(gm_only)])
    def rest_of_round(fight_id: str, body: PlainIn) -> Any:
        book, plan = service.act(fight_id, lambda b: b.plan_round(), body.expected)
        return done(book, plan)

    _overrule_routes(app, service, gm_only, done, changes)

    @app.post("/api/fights/{fight_id}/undo", dependencies=[Depends(gm_only)])
    def undo(fight_id: str, body: PlainIn) -> Any:
        book, plan = service.act(fight_id, lambda b: b.plan_undo(), body.expected)
        return done(book, plan)

    @app.post("/api/fights/{fight_id}/redo", dependencies=[Depends(gm_only)])
    def redo(fight_id: str, body: PlainIn) -> Any:
        book, plan = service.act(fight_id, lambda b: b.plan_redo(), body.expected)
        return done(book, plan)


def _create_routes(app: FastAPI, service: FightService, gm_only: Any) -> None:
    """New fights: from an encounter, from an exported fight; an uploaded encounter file checked."""

    def created(book: FightBook) -> dict[str, Any]:
        fid = book.record.id
        return {
            "status": "ok",
            "id": fid,
            "seq": book.seq,
            "gm": f"/gm/{fid}",
            "player": f"/view/{fid}",
        }

    @app.post("/api/fights", dependencies=[Depends(gm_only)])
    def create(body: CreateIn) -> Any:
        return created(service.create(body.encounter, seed=body.seed, source="encounter"))

    @app.post("/api/fights/import", dependencies=[Depends(gm_only)])
    def import_fight(body: dict[str, Any]) -> Any:
        return created(service.import_(body, source="import"))

    @app.post("/api/encounters/parse", dependencies=[Depends(gm_only)])
    async def parse_upload(file: UploadFile = File(...)) -> Any:
        """An uploaded encounter file (YAML or TOML), checked; returned as JSON for the builder."""
        raw = await file.read(MAX_UPLOAD + 1)
        if len(raw) > MAX_UPLOAD:
            raise UsageError(f"the file is larger than {MAX_UPLOAD // 1000} kB")
        name = file.filename or "upload"
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise EncounterFileError(f"{name}: not a UTF-8 text file") from None
        data = _parse_text(text, name)
        enc.load_data(data, name)  # every error of the file, before the builder takes it
        return {"status": "ok", "encounter": json.loads(json.dumps(data, default=str))}


def _defaults(rid: str, templates: list[str]) -> dict[str, Any]:
    """The builder's starting sides: heroes against monsters from the bundled templates (a default that
    is not a template of this ruleset is dropped; none left: the first and the last template)."""
    want = BUILDER_DEFAULTS.get(rid, {})
    heroes = [t for t in want.get("heroes", ()) if t in templates]
    monsters = [t for t in want.get("monsters", ()) if t in templates]
    if not heroes and templates:
        heroes = [templates[0]]
    if not monsters and templates:
        monsters = [templates[-1]]
    return {"heroes": heroes, "monsters": monsters}


def _rulesets() -> list[dict[str, Any]]:
    from fracas.rules.registry import RULESETS, get_ruleset

    out = []
    for rid, (_, title) in RULESETS.items():
        item: dict[str, Any] = {"id": rid, "name": title, "available": False}
        try:
            rs = get_ruleset(rid)
            item.update(
                available=True,
                name=rs.name or title,
                templates=list(rs.templates()),
                defaults=_defaults(rid, list(rs.templates())),
                tactics=sorted(rs.tactics()),
                options=[{"id": o.id, "title": o.title, "default": o.default} for o in rs.optional_rules()],
            )
        except (RuleNotImplemented, ImportError, AttributeError) as exc:
            item["why"] = str(exc)
        out.append(item)
    return out


def _stream_route(app: FastAPI, service: FightService, changes: Changes, version_of: Any) -> None:
    @app.get("/api/fights/{fight_id}/stream")
    async def stream(request: Request, fight_id: str) -> Any:
        """Server-sent events: ``data: {"seq": N}`` at once and whenever the version moves (an action
        through this server wakes the stream at once; another process's, the terminal's, within
        ``STREAM_CHECK`` seconds); a comment line now and then keeps proxies from closing it."""
        check_id(fight_id)
        if not service.store.exists(fight_id):
            raise HTTPException(404, f"no saved fight with id {fight_id!r}")

        async def events() -> Any:
            last = None
            quiet = 0.0
            yield "retry: 1000\n\n"
            while not await request.is_disconnected():
                try:
                    now = await run_in_threadpool(version_of, request, fight_id)
                except FracasError:  # deleted meanwhile
                    yield "event: gone\ndata: {}\n\n"
                    return
                if now != last:
                    last, quiet = now, 0.0
                    yield f"data: {json.dumps({'seq': now})}\n\n"
                elif quiet >= STREAM_KEEPALIVE:
                    quiet = 0.0
                    yield ": still here\n\n"
                quiet += await changes.wait(fight_id, STREAM_CHECK)

        headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        return StreamingResponse(events(), media_type="text/event-stream", headers=headers)


def _overrule_routes(app: FastAPI, service: FightService, gm_only: Any, done: Any, changes: Changes) -> None:
    """The game master's overrides (docs/web.md, "Overruling"), renaming and deleting a fight."""

    @app.post("/api/fights/{fight_id}/override", dependencies=[Depends(gm_only)])
    def override(fight_id: str, body: OverrideIn) -> Any:
        book, plan = service.act(fight_id, lambda b: b.plan_override(body.override), body.expected)
        return done(book, plan)

    @app.post("/api/fights/{fight_id}/rename", dependencies=[Depends(gm_only)])
    def rename(fight_id: str, body: RenameIn) -> Any:
        service.rename(fight_id, body.name)
        changes.notify(fight_id)
        return {"status": "ok", "name": body.name.strip()}

    @app.post("/api/fights/{fight_id}/delete", dependencies=[Depends(gm_only)])
    def delete(fight_id: str) -> Any:
        service.delete(fight_id)
        changes.notify(fight_id)
        return {"status": "ok"}


def _parse_text(text: str, name: str) -> dict[str, Any]:
    """An uploaded encounter's text, read by the engine's bounded loader (no alias bomb, no deep nesting,
    no duplicate key: :mod:`fracas.engine.safe_yaml`)."""
    return enc.read_text(text, name, toml=name.lower().endswith(".toml"))


def _page_error(status: int, message: str) -> str:
    from html import escape

    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>fracas</title>"
        "<link rel='stylesheet' href='/static/fracas.css'></head><body><main class='error-page'>"
        f"<h1>{status}</h1><p>{escape(message)}</p><p><a href='/'>fracas</a></p></main></body></html>"
    )
