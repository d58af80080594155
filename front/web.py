"""The web page and its API (``cartoscan serve``): Starlette, run by uvicorn (the optional ``web`` extra).

API (docs/INTERFACES.md §3, ``serve``), for the page and for scripts alike; every error is
``{"error": "..."}`` with a 4xx status (503 when the server is too busy, retry later):

``POST /api/scan``
    multipart field ``photo`` -> the ``scan --json`` object (:meth:`scanner.pipeline.Reading.to_json`)
    plus ``overlay`` (:func:`front.overlay.cell_layers`), ``canonical`` (the rectified sheet, a JPEG
    data URI) and ``odds`` (each unsure cell's likely terrains with their probabilities).
    400 no photo or an empty one; 413 over :data:`MAX_UPLOAD_BYTES` bytes or
    :data:`MAX_UPLOAD_PIXELS` pixels (checked from the header before decoding); 415 not an image;
    422 no map sheet found in it.
``POST /api/score``
    JSON ``{"sheet": "<sheet notation>", "cards": [...], "season": "...", "alternatives": {"C4": "FW"},
    "warnings": [...], "allow_doubtful": false}`` -> the ``score --json`` object (200); the ``?`` cells
    with their ``alternatives`` and the ``warnings`` (whole-sheet doubts) go through the one scoring
    policy: 422 with ``error`` (what is at stake), ``doubtful`` and ``provisional`` (the most likely
    reading's score object) when a person must look; 400 for a bad sheet, card or season.
``POST /api/sheet``
    the same body plus ``title`` -> the ``.sheet`` text to download (``?`` on the cells still unsure).
``POST /api/check``
    the same body -> ``check``'s object ``{"ok", "problems": [...]}`` (docs/INTERFACES.md §3,
    ``check``) of the sheet, its ``?`` cells as wildcards.
``POST /api/report``
    multipart: ``photo``, ``cards`` (comma-separated), ``season``, ``fixes`` (``B7=W,C3=.``), ``title``
    -> the self-contained HTML report of :mod:`front.report` (as an attachment), doubts shown.
``GET /api/cards``
    the scoring cards with their names in every language.

No path from a request touches the file system: the page's three files are read once at start and
served by fixed routes.  Photos are read two at a time in worker threads; a bounded number wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from importlib import resources
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from front.overlay import TERRAIN_COLOURS, cell_layers, hex_colour
from front.report import data_uri, odds_of, report_html
from front.results import parse_fixes, problems_of, review, score_json, sheet_text
from rules import Sheet, SheetError, Terrain, cell_label, parse_label
from rules.cards import CARDS, find_card
from rules.policy import UncertainSheet

if TYPE_CHECKING:
    from scanner.pipeline import Reading

__all__ = ["MAX_UPLOAD_BYTES", "MAX_UPLOAD_PIXELS", "create_app"]

MAX_UPLOAD_BYTES = 25 * 1024 * 1024
"""Largest upload body (a 50 MP phone JPEG is ~20 MB): refused from Content-Length or while received."""
MAX_UPLOAD_PIXELS = 52_000_000
"""Largest photo in pixels (50 MP phones), checked from the image header before any decoding."""
MAX_JSON_BYTES = 64 * 1024
"""Largest JSON body: a sheet with its alternatives is under 2 kB."""
READERS = 2
"""Photos read at once (the machine's cores; each read is ~0.1-0.3 s of CPU)."""
MAX_WAITING = 32
"""Uploads allowed to wait for a reader; more are answered 503 (retry) instead of piling up memory."""

_Scope = MutableMapping[str, Any]
_Message = MutableMapping[str, Any]
_Receive = Callable[[], Awaitable[_Message]]
_Send = Callable[[_Message], Awaitable[None]]
_ASGI = Callable[[_Scope, _Receive, _Send], Awaitable[None]]


class _TooLarge(Exception):
    """The request body passed its cap while being received."""


class BodyLimit:
    """ASGI middleware: refuse a request body over its path's cap with 413, from its Content-Length or
    as soon as the bytes received pass it (a chunked upload), before any parsing."""

    def __init__(self, app: _ASGI, limits: dict[str, int], default: int = MAX_JSON_BYTES) -> None:
        self.app = app
        self.limits = limits
        self.default = default

    async def __call__(self, scope: _Scope, receive: _Receive, send: _Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limits.get(scope["path"], self.default)
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length", b"")
        if length.isdigit() and int(length) > limit:
            await _too_large(limit)(scope, receive, send)
            return
        received = 0
        started = False

        async def limited() -> _Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise _TooLarge
            return message

        async def watched(message: _Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited, watched)
        except _TooLarge:
            if not started:
                await _too_large(limit)(scope, receive, send)


def _too_large(limit: int) -> Response:
    return _error(413, f"the upload is larger than {limit // (1024 * 1024) or limit} "
                  f"{'MB' if limit >= 1024 * 1024 else 'bytes'}")


def _error(status: int, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": message, **extra}, status_code=status)


_FAILURE_STATUS = {"unreadable": 415, "too_large": 413}  # other reasons: the image holds no readable sheet


class _Readers:
    """At most :data:`READERS` photos read at once, at most :data:`MAX_WAITING` waiting."""

    def __init__(self) -> None:
        self.slots = asyncio.Semaphore(READERS)
        self.waiting = 0

    async def run(self, work: Callable[[], Any]) -> Any:
        if self.waiting >= MAX_WAITING:
            return None
        self.waiting += 1
        try:
            await self.slots.acquire()
        finally:  # also when the client goes away while waiting
            self.waiting -= 1
        try:
            return await run_in_threadpool(work)
        finally:
            self.slots.release()


def _reading(data: bytes) -> Reading | JSONResponse:
    """Decode and read one uploaded photo (in a worker thread) as the command reads a photo file
    (:func:`scanner.pipeline.read_photo_data`): the reading or an error."""
    from scanner.failure import Failure
    from scanner.nets import ModelError
    from scanner.pipeline import read_photo_data

    try:
        reading = read_photo_data(data, max_pixels=MAX_UPLOAD_PIXELS)
    except ModelError as exc:
        return _error(500, str(exc))
    if isinstance(reading, Failure):
        return _error(_FAILURE_STATUS.get(reading.reason, 422), reading.message)
    return reading


def _report_upload(
    data: bytes, cards: list[Any], season: str | None, fixes: Any, title: str
) -> str | JSONResponse:
    """The HTML report of one uploaded photo with a person's fixes (in a worker thread)."""
    from scanner.failure import Failure
    from scanner.load import decode_photo

    reading = _reading(data)
    if isinstance(reading, JSONResponse):
        return reading
    shown = decode_photo(data, max_pixels=MAX_UPLOAD_PIXELS)  # only shown (at most 1200 px): shrunk
    image = None if isinstance(shown, Failure) else shown.image
    try:
        uncertain = reading.uncertain.fix(fixes) if fixes else reading.uncertain
        reviewed = review(uncertain, cards, season)
    except SheetError as exc:
        return _error(400, str(exc))
    return report_html(
        reviewed, cards, season, title=title, photo=image, canonical=reading.canonical,
        odds=odds_of(reading.probabilities, uncertain.alternatives), problems=problems_of(uncertain),
    )


def _read_upload(data: bytes) -> dict[str, Any] | JSONResponse:
    """Decode and read one uploaded photo (in a worker thread): the scan object or an error."""
    reading = _reading(data)
    if isinstance(reading, JSONResponse):
        return reading
    out: dict[str, Any] = reading.to_json()
    out["overlay"] = cell_layers(reading.sheet, reading.sheet.unknown)
    odds = odds_of(reading.probabilities, reading.alternatives)
    out["odds"] = {cell_label(cell): {t: round(p, 3) for t, p in o.items()} for cell, o in odds.items()}
    out["canonical"] = data_uri(reading.canonical) if reading.canonical is not None else None
    return out


async def _json_body(request: Request) -> dict[str, Any]:
    try:
        body = json.loads(await request.body())
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise HTTPException(400, "the body is not JSON") from None
    if not isinstance(body, dict):
        raise HTTPException(400, "the body must be a JSON object")
    return body


def _uncertain(body: dict[str, Any]) -> UncertainSheet:
    """The sheet of a score request with its unsure cells and whole-sheet doubts; raises SheetError."""
    text = body.get("sheet")
    if not isinstance(text, str):
        raise SheetError('give the sheet as "sheet": "<sheet notation>"')
    sheet = Sheet.parse(text)
    alternatives_in = body.get("alternatives") or {}
    warnings = body.get("warnings") or []
    if not isinstance(alternatives_in, dict) or not isinstance(warnings, list):
        raise SheetError('"alternatives" is an object {"C4": "FW"} and "warnings" a list of strings')
    from_photo = body.get("from_photo", False)
    if not isinstance(from_photo, bool):
        raise SheetError('"from_photo" is true (a reading of a photo, checked for consistency) or false')
    alternatives = {}
    for cell in sheet.unknown:
        given = alternatives_in.get(cell_label(cell), ".FVPWMHX")
        if not isinstance(given, str) or not given or any(s not in ".FVPWMHX" for s in given):
            raise SheetError(f"{cell_label(cell)}: alternatives are terrain symbols like 'FW', not {given!r}")
        alternatives[cell] = tuple(Terrain(s) for s in given)
    for label in alternatives_in:
        parse_label(str(label))  # a label that is no cell is an error, not silently ignored
    guess = sheet.replace({cell: alts[0] for cell, alts in alternatives.items()})
    return UncertainSheet(guess, alternatives, tuple(str(w) for w in warnings), from_photo)


def _cards_and_season(body: dict[str, Any]) -> tuple[list[Any], str | None]:
    cards = body.get("cards")
    if isinstance(cards, str):
        cards = [c for c in cards.split(",") if c.strip()]
    if not isinstance(cards, list) or not cards or not all(isinstance(c, str) for c in cards):
        raise SheetError('give the scoring cards as "cards": ["id or name", ...]')
    season = body.get("season") or None
    if season is not None and not isinstance(season, str):
        raise SheetError('"season" is spring, summer, fall or winter')
    if season is not None:
        from rules.season import Season

        Season.parse(season)
    return [find_card(c) for c in cards], season


def create_app() -> Starlette:
    """The Starlette application: the page, its two static files and the API."""
    static = resources.files("front").joinpath("static")
    page = static.joinpath("index.html").read_text(encoding="utf-8")
    files = {
        "app.js": (static.joinpath("app.js").read_text(encoding="utf-8"), "text/javascript"),
        "style.css": (static.joinpath("style.css").read_text(encoding="utf-8"), "text/css"),
    }
    boot = {
        "cards": [{"id": card.id, "names": dict(card.names)} for card in CARDS.values()],
        "colours": {symbol: hex_colour(symbol) for symbol in TERRAIN_COLOURS},
        "terrains": {str(t.value): t.name.lower() for t in Terrain if t is not Terrain.UNKNOWN},
        "max_upload_bytes": MAX_UPLOAD_BYTES,
    }
    safe = json.dumps(boot, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e")
    page = page.replace("{{BOOT}}", safe.replace("&", "\\u0026"))
    readers = _Readers()

    async def index(request: Request) -> Response:
        return Response(page, media_type="text/html; charset=utf-8",
                        headers={"Content-Security-Policy": _CSP, "X-Content-Type-Options": "nosniff"})

    def asset(name: str) -> Callable[[Request], Awaitable[Response]]:
        text, media = files[name]

        async def serve(request: Request) -> Response:
            return Response(text, media_type=f"{media}; charset=utf-8",
                            headers={"X-Content-Type-Options": "nosniff", "Cache-Control": "no-cache"})

        return serve

    async def scan(request: Request) -> Response:
        async with request.form(max_files=1, max_fields=4) as form:  # a malformed body: HTTPException 400
            upload = form.get("photo")
            if upload is None or isinstance(upload, str):
                return _error(400, "send the photo as multipart/form-data, field 'photo'")
            data = await upload.read()
        if not data:
            return _error(400, "the photo is empty (0 bytes)")
        result = await readers.run(functools.partial(_read_upload, data))
        if result is None:
            return _error(503, "too many photos are being read; try again in a moment")
        return result if isinstance(result, Response) else JSONResponse(result)

    async def report(request: Request) -> Response:
        async with request.form(max_files=1, max_fields=8) as form:
            upload = form.get("photo")
            if upload is None or isinstance(upload, str):
                return _error(400, "send the photo as multipart/form-data, field 'photo'")
            data = await upload.read()
            fields = {k: form.get(k) for k in ("cards", "season", "fixes", "title")}
        if not data:
            return _error(400, "the photo is empty (0 bytes)")
        text = {k: v if isinstance(v, str) else "" for k, v in fields.items()}
        try:
            cards, season = _cards_and_season({"cards": text["cards"], "season": text["season"] or None})
            fixes = parse_fixes(text["fixes"]) if text["fixes"].strip() else None
        except SheetError as exc:
            return _error(400, str(exc))
        title = text["title"][:200] or "photo"
        result = await readers.run(functools.partial(_report_upload, data, cards, season, fixes, title))
        if result is None:
            return _error(503, "too many photos are being read; try again in a moment")
        if isinstance(result, Response):
            return result
        return Response(result, media_type="text/html; charset=utf-8",
                        headers={"Content-Disposition": 'attachment; filename="report.html"'})

    async def score(request: Request) -> Response:
        body = await _json_body(request)
        try:
            cards, season = _cards_and_season(body)
            uncertain = _uncertain(body)
            if body.get("allow_doubtful"):
                from rules.policy import decide

                verdict = decide(uncertain, cards, season, allow_doubtful=True)
                assert verdict.sheet is not None
                return JSONResponse(score_json(verdict.sheet, cards, season, verdict))
            reviewed = review(uncertain, cards, season)
        except SheetError as exc:
            return _error(400, str(exc))
        if reviewed.provisional:
            suspect = [problem.to_json() for problem in reviewed.verdict.suspect]
            return _error(422, reviewed.verdict.stake, doubtful=list(reviewed.verdict.doubtful),
                          warnings=list(uncertain.doubts), suspect=suspect, provisional=reviewed.shown)
        return JSONResponse(reviewed.shown)

    async def check(request: Request) -> Response:
        body = await _json_body(request)
        try:
            uncertain = _uncertain(body)
        except SheetError as exc:
            return _error(400, str(exc))
        problems = await run_in_threadpool(problems_of, uncertain)
        return JSONResponse({"ok": not problems, "problems": problems})

    async def sheet(request: Request) -> Response:
        body = await _json_body(request)
        try:
            uncertain = _uncertain(body)
        except SheetError as exc:
            return _error(400, str(exc))
        title = body.get("title")
        text = sheet_text(uncertain, title=title if isinstance(title, str) else "")
        return PlainTextResponse(text, headers={"Content-Disposition": 'attachment; filename="map.sheet"'})

    async def cards_list(request: Request) -> Response:
        return JSONResponse(boot["cards"])

    async def http_error(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        detail = exc.detail if isinstance(exc, HTTPException) else "internal error"
        return _error(status, str(detail))

    def warm() -> None:
        from scanner.nets import default_models

        default_models()  # load and check the models once, before the first photo waits for it

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await run_in_threadpool(warm)
        yield

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/app.js", asset("app.js")),
            Route("/style.css", asset("style.css")),
            Route("/api/scan", scan, methods=["POST"]),
            Route("/api/score", score, methods=["POST"]),
            Route("/api/sheet", sheet, methods=["POST"]),
            Route("/api/report", report, methods=["POST"]),
            Route("/api/check", check, methods=["POST"]),
            Route("/api/cards", cards_list),
        ],
        exception_handlers={HTTPException: http_error},
        lifespan=lifespan,
    )
    app.add_middleware(BodyLimit, limits={"/api/scan": MAX_UPLOAD_BYTES, "/api/report": MAX_UPLOAD_BYTES})
    return app


# The page loads nothing from elsewhere: scripts, styles and images from this server or data: URIs only.
_CSP = ("default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; "
        "object-src 'none'; base-uri 'none'; form-action 'self'")
