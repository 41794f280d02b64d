"""The web page's application: Starlette routes over the folders (docs/web.md, "Routes").

:func:`create_app` builds it; ``coyote-pi web`` serves it with Uvicorn. The pages are
rendered on the server (Jinja2); one small script (``static/page.js``) keeps the table
page and the setup page up to date from server-sent events. Nothing here writes into the
records or the bulletin folder: the only writes are the requests folder's files and the
reviews the page keeps in its own folder (:class:`~coyote_pi.web.reviews.ReviewCache`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO
from urllib.parse import parse_qs, quote, urlencode

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from coyote_pi.config import ConfigError
from coyote_pi.contract.page import DOCTOR, DOCTOR_WANT, PREVIEW, PREVIEW_INFO, SETTINGS, SETTINGS_RESULT
from coyote_pi.engine.events import EventType
from coyote_pi.json_text import JsonObject
from coyote_pi.web import security, setup
from coyote_pi.web.bulletin import (
    Folders,
    Live,
    read_json,
    read_live,
)
from coyote_pi.web.games import Games, Loaded
from coyote_pi.web.push import INTERVAL, Feed
from coyote_pi.web.texts import Texts
from coyote_pi.web.views import (
    correction_words,
    judgement_models,
    review_summary_model,
    round_line,
    step_model,
    table_model,
    verdict,
    virtual_model,
)
from coyote_pi.words.translator import card_text

HERE = Path(__file__).parent
#: Open event streams at most: each costs a little memory, and a table has a few dozen watchers.
MAX_LISTENERS = 200


@dataclass
class Options:
    """How the page runs: the table's configuration file (read only: the settings shown
    until the table publishes those in force), the command that prints the device's log,
    and the test hook (the page's script keeps every message)."""

    config_file: Path | None = None
    log_command: Sequence[str] | None = setup.JOURNAL
    test_hook: bool = False
    interval: float = INTERVAL
    clock: Callable[[], float] = field(default=time.time)


def create_app(folders: Folders, options: Options | None = None) -> Starlette:
    options = options or Options()
    pages = _Pages(folders, options)
    routes = [
        Route("/", pages.table),
        Route("/events", pages.table_events),
        Route("/history", pages.history),
        Route("/history/{game}", pages.game),
        Route("/history/{game}/round/{number:int}", pages.round),
        Route("/photos/{game}/{file}", pages.photo),
        Route("/records", pages.records),
        Route("/records/{game}.zip", pages.archive),
        Route("/records/{game}.txt", pages.transcript),
        Route("/login", pages.login, methods=["GET", "POST"]),
        Route("/logout", pages.logout, methods=["POST"]),
        Route("/setup", pages.setup),
        Route("/setup/events", pages.setup_events),
        Route("/setup/preview.jpg", pages.preview),
        Route("/setup/settings", pages.settings, methods=["POST"]),
        Route("/setup/doctor", pages.doctor, methods=["POST"]),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        task = asyncio.create_task(pages.feed.run())
        try:
            yield
        finally:
            pages.feed.close()
            task.cancel()

    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(_SecurityHeaders)
    app.state.pages = pages
    return app


class _SecurityHeaders:
    """Adds :data:`security.HEADERS` to every response (a pure ASGI middleware: it does not
    hold up the event streams)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.headers = [(k.lower().encode(), v.encode()) for k, v in security.HEADERS.items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = dict(message, headers=list(message.get("headers", [])) + self.headers)
            await send(message)

        await self.app(scope, receive, send_with_headers)


class _Pages:
    def __init__(self, folders: Folders, options: Options) -> None:
        self.folders, self.options = folders, options
        self.games = Games(folders.records, folders.reviews)
        self.sessions = security.Sessions(options.clock)
        self.guard = security.PinGuard()
        self.templates = Environment(loader=FileSystemLoader(HERE / "templates"),
                                     autoescape=select_autoescape(default=True), trim_blocks=True, lstrip_blocks=True,
                                     extensions=["jinja2.ext.i18n"])
        self.templates.filters["card"] = card_text
        self.feed = Feed(folders, self.table_message, self.setup_message, options.interval)

    # -- helpers ------------------------------------------------------------------------

    @property
    def live(self) -> Live:
        """``live.json`` as it is now (read per request: a refusal never rests on a stale copy)."""
        return read_live(self.folders)

    def render(self, request: Request | None, name: str, status: int = 200, **context: object) -> HTMLResponse:
        live = self.live
        texts = Texts(live.language)
        session = self.session(request) if request is not None else None
        html = self.templates.get_template(name).render(
            **texts.template_words(), live=live, session=session, test_hook=self.options.test_hook,
            path=request.url.path if request is not None else "/", **context)
        return HTMLResponse(html, status, headers={"Cache-Control": "no-store"})

    def session(self, request: Request) -> security.Session | None:
        return self.sessions.get(request.cookies.get(security.COOKIE))

    def needs_login(self, request: Request) -> Response | None:
        if self.session(request) is None:
            return RedirectResponse(f"/login?next={quote(request.url.path)}", 303)
        return None

    def refuse(self, request: Request, key: str, status: int = 409, **words: object) -> HTMLResponse:
        return self.render(request, "refused.html", status, reason=key, words=words)

    def checked_post(self, request: Request, form: Mapping[str, str] | None) -> Response | None:
        """A POST from this page, in a session, with its CSRF token: None; else the refusal.
        A session that ended (the page server restarted, or it sat idle) gets the PIN page,
        which says so and carries the form's settings back to the setup page."""
        session = self.session(request)
        if form is None:
            return self.refuse(request, "refused.too_large", 413)
        if not security.same_origin(request.headers, request.headers.get("host", "")):
            return self.refuse(request, "refused.cross_site", 403)
        if session is None:
            return self.render(request, "login.html", 401, target="/setup", kept=setup.typed_settings(form),
                               error=Texts(self.live.language)("login.session_ended"))
        if not secrets_equal(form.get("csrf"), session.csrf):
            return self.refuse(request, "refused.cross_site", 403)
        return None

    # -- the table ------------------------------------------------------------------------

    def table_message(self, live: Live) -> JsonObject:
        model = table_model(live, self.games)
        html = self.templates.get_template("_live.html").render(**Texts(live.language).template_words(), m=model)
        return {"seq": live.seq, "state": model, "html": html}

    async def table(self, request: Request) -> Response:
        message = self.table_message(self.live)
        return self.render(request, "table.html", m=message["state"], live_html=message["html"])

    async def table_events(self, request: Request) -> Response:
        if self.feed.table.listeners >= MAX_LISTENERS:
            return PlainTextResponse("too many spectators", 503, headers={"Retry-After": "30"})
        return _event_stream(self.feed.table.stream())

    # -- history ---------------------------------------------------------------------------

    async def history(self, request: Request) -> Response:
        return self.render(request, "history.html", games=self.games.summaries())

    def loaded(self, game: str) -> Loaded | None:
        return self.games.load(game) if self.folders.record(game) else None

    async def game(self, request: Request) -> Response:
        game = request.path_params["game"]
        loaded = self.loaded(game)
        if loaded is None:
            return self.refuse(request, "missing.game", 404)
        texts = Texts(self.live.language)
        stories = await run_in_threadpool(self.games.stories, game) or []
        rounds = [{"round": s.number, "text": round_line(texts, s.results[-1]),
                   "url": f"/history/{game}/round/{s.number}"} for s in stories if s.results]
        review = await run_in_threadpool(self.games.review, game) if rounds else None
        return self.render(request, "game.html", game=game, summary=loaded.summary, rounds=rounds,
                           virtual=virtual_model(texts, loaded.summary.virtual),
                           review=review_summary_model(texts, review, {s.number for s in stories if s.results}))

    async def round(self, request: Request) -> Response:
        game, number = request.path_params["game"], request.path_params["number"]
        loaded = self.loaded(game)
        stories = await run_in_threadpool(self.games.stories, game) if loaded else None
        story = next((s for s in stories or () if s.number == number and s.results), None)
        if loaded is not None and loaded.record is None:
            return self.refuse(request, "history.unreadable", 404, error=loaded.summary.error)
        if loaded is None or story is None:
            return self.refuse(request, "missing.round", 404)
        texts = Texts(self.live.language)
        verdicts = []
        corrections = list(story.corrections)
        correction_lines = [step.line for step in story.steps if step.type == EventType.CORRECT]
        # Old games' photos are pruned (``keep_photos_games``): no broken picture for them.
        kept = [(step.photo, step.type) for step in story.steps if step.photo and self.games.photo(game, step.photo)]
        for index, result in enumerate(story.results):
            corrected = corrections[index - 1] if index else None
            shown = verdict(texts, game, result, kept if index == 0 else [], corrected)
            if index < len(corrections):  # the next correction's verdict takes its place
                shown["replaced_by"] = {"line": correction_lines[index],
                                        "text": correction_words(texts, corrections[index])}
            verdicts.append(shown)
        numbers = [s.number for s in stories or () if s.results]
        position = numbers.index(number)
        judged = judgement_models(texts, await run_in_threadpool(self.games.review, game), number)
        return self.render(request, "round.html", game=game, summary=loaded.summary, number=number,
                           steps=[step_model(texts, step, number) for step in story.steps], verdicts=verdicts,
                           judged=judged,
                           challenger=story.challenger, photos_gone=len(story.photos) - len(kept),
                           previous=numbers[position - 1] if position else None,
                           next=numbers[position + 1] if position + 1 < len(numbers) else None)

    async def photo(self, request: Request) -> Response:
        game, file = request.path_params["game"], request.path_params["file"]
        path = self.games.photo(game, file) if self.folders.record(game) else None
        if path is None:
            return PlainTextResponse("no such photo", 404)
        return FileResponse(path, media_type="image/jpeg")

    # -- records ---------------------------------------------------------------------------

    async def records(self, request: Request) -> Response:
        summaries = self.games.summaries()
        checks = {s.name: self.games.check_arguments(s) for s in summaries}
        return self.render(request, "records.html", games=summaries, checks=checks)

    def download_refusal(self, request: Request, game: str) -> Response | None:
        refusal = self.needs_login(request)
        if refusal is not None:
            return refusal
        if self.loaded(game) is None:
            return self.refuse(request, "missing.game", 404)
        if self.live.locks(game):
            return self.refuse(request, "refused.round_open")
        return None

    async def archive(self, request: Request) -> Response:
        game = request.path_params["game"]
        refusal = self.download_refusal(request, game)
        if refusal is not None:
            return refusal
        stream = await run_in_threadpool(self.games.archive, game)
        if stream is None:  # the record went away since the refusal looked
            return self.refuse(request, "missing.game", 404)
        return StreamingResponse(_chunks(stream), media_type="application/zip",
                                 headers={"Content-Disposition": f'attachment; filename="{game}.zip"'})

    async def transcript(self, request: Request) -> Response:
        game = request.path_params["game"]
        refusal = self.download_refusal(request, game)
        if refusal is not None:
            return refusal
        text = await run_in_threadpool(self.games.transcript, game)
        if text is None:
            return self.refuse(request, "missing.game", 404)
        return PlainTextResponse(text, headers={"Content-Disposition": f'inline; filename="{game}.txt"'})

    # -- the PIN ---------------------------------------------------------------------------

    async def login(self, request: Request) -> Response:
        target = request.query_params.get("next", "/setup")
        # Only a path of this page: never "//host" or "/\\host", which browsers take for another site.
        target = target if target.startswith("/") and not target.startswith(("//", "/\\")) else "/setup"
        if request.method == "GET":
            return self.render(request, "login.html", target=target, error=None)
        if not security.same_origin(request.headers, request.headers.get("host", "")):
            return self.refuse(request, "refused.cross_site", 403)
        form = await _form(request)
        if form is None:
            return self.refuse(request, "refused.too_large", 413)
        # Settings typed before the session ended go back to the setup page's form.
        kept = setup.typed_settings(form)
        client = request.client.host if request.client else "?"
        texts = Texts(self.live.language)
        wait = self.guard.wait(client)
        if wait > 0:
            return self.render(request, "login.html", 429, target=target, kept=kept,
                               error=texts.plural("login.slow_down", int(wait) + 1, seconds=int(wait) + 1))
        if not security.pin_matches(str(form.get("pin", "")).strip(), self.live.pin, self.options.clock()):
            self.guard.failed(client)
            error = texts("login.wrong") if self.live.running else texts("login.no_table")
            return self.render(request, "login.html", 403, target=target, kept=kept, error=error)
        self.guard.succeeded(client)
        session = self.sessions.open()
        if kept and target == "/setup":
            target += "?" + urlencode(kept)
        response = RedirectResponse(target, 303)
        response.set_cookie(security.COOKIE, session.token, max_age=security.MAX_AGE, httponly=True,
                            samesite="strict", path="/")
        return response

    async def logout(self, request: Request) -> Response:
        form = await _form(request)
        refusal = self.checked_post(request, form)
        if refusal is not None:
            return refusal
        self.sessions.close(request.cookies.get(security.COOKIE))
        response = RedirectResponse("/", 303)
        response.delete_cookie(security.COOKIE, path="/")
        return response

    # -- setup -------------------------------------------------------------------------------

    def setup_refusal(self, request: Request) -> Response | None:
        refusal = self.needs_login(request)
        if refusal is not None:
            return refusal
        if not self.live.between_games:
            return self.refuse(request, "refused.game_on")
        return None

    def setup_message(self, live: Live) -> JsonObject:
        bulletin = self.folders.bulletin
        preview = read_json(bulletin / PREVIEW_INFO) if live.between_games else None
        doctor = read_json(bulletin / DOCTOR)
        result = read_json(bulletin / SETTINGS_RESULT)
        model = {"between_games": live.between_games, "preview": preview, "doctor": doctor,
                 "settings_result": result, "pending": (self.folders.requests / SETTINGS).is_file()}
        html = self.templates.get_template("_setup_status.html").render(**Texts(live.language).template_words(), s=model)
        return {"state": model, "html": html}

    def current_settings(self) -> list[setup.Field]:
        """The settings the page may change, as the table has them in force (or as configured)."""
        return setup.current_fields(self.folders.bulletin, self.options.config_file)

    async def setup(self, request: Request, error: str | None = None, saved: bool | None = None,
                    withdrawn: bool = False) -> Response:
        """The setup page; ``saved``: a proposal was just sent (True) or changed nothing
        (False), ``withdrawn``: a form of the values in force took back the one waiting."""
        refusal = self.setup_refusal(request)
        if refusal is not None:
            return refusal
        self.feed.renew_preview()
        lines = await run_in_threadpool(setup.log_lines, self.options.log_command)
        status = self.setup_message(self.live)
        form = getattr(request.state, "form", None)
        if form is None:  # settings carried back through the PIN page after the session ended
            form = setup.typed_settings(request.query_params)
        return self.render(request, "setup.html", 400 if error else 200, fields=self.current_settings(),
                           pending=setup.pending_values(self.folders.requests), status_html=status["html"],
                           log=lines, error=error, saved=saved, withdrawn=withdrawn, form=form,
                           carried=bool(form) and not error and saved is None)

    async def setup_events(self, request: Request) -> Response:
        # An event stream, never a page: the script tells a stream it cannot have
        # (the session ended, a game started) from a server that is away.
        if self.session(request) is None:
            return PlainTextResponse("the session ended", 401)
        if not self.live.between_games:
            return PlainTextResponse("setup only between games", 409)
        return _event_stream(self.feed.setup.stream())

    async def preview(self, request: Request) -> Response:
        refusal = self.setup_refusal(request)
        if refusal is not None:
            return refusal
        self.feed.renew_preview()
        path = self.folders.bulletin / PREVIEW
        if not path.is_file():
            return PlainTextResponse("no preview yet", 404)
        return FileResponse(path, media_type="image/jpeg", headers={"Cache-Control": "no-store"})

    async def settings(self, request: Request) -> Response:
        form = await _form(request)
        refusal = self.checked_post(request, form) or self.setup_refusal(request)
        if refusal is not None:
            return refusal
        assert form is not None  # checked_post refuses a body too large to be a form
        try:
            text = setup.proposal(form, self.current_settings())
        except ConfigError as error:
            request.state.form = form
            return await self.setup(request, error=str(error))
        request.state.form = {}
        if text is not None:
            await run_in_threadpool(setup.write_proposal, self.folders.requests, text)
            return await self.setup(request, saved=True)
        # Every value is the one in force: a proposal still waiting is taken back.
        withdrawn = await run_in_threadpool(setup.withdraw_proposal, self.folders.requests)
        return await self.setup(request, saved=False, withdrawn=withdrawn)

    async def doctor(self, request: Request) -> Response:
        form = await _form(request)
        refusal = self.checked_post(request, form) or self.setup_refusal(request)
        if refusal is not None:
            return refusal
        self.folders.touch_request(DOCTOR_WANT)
        return RedirectResponse("/setup", 303)


#: The page's forms are a few short fields; anything longer is not one of them.
MAX_FORM_BYTES = 16 * 1024


async def _form(request: Request) -> dict[str, str] | None:
    """A URL-encoded form's fields (the page sends no other kind; no multipart parser
    needed); None when the body is larger than any of the page's forms."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FORM_BYTES:
            return None
    return {key: values[0] for key, values in parse_qs(body.decode("utf-8", "replace")).items()}


def secrets_equal(given: object, expected: str) -> bool:
    return isinstance(given, str) and hmac.compare_digest(given.encode(), expected.encode())


def _event_stream(events: AsyncIterator[str]) -> StreamingResponse:
    return StreamingResponse(events, media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


async def _chunks(stream: IO[bytes], size: int = 64 * 1024) -> AsyncIterator[bytes]:
    try:
        while chunk := await run_in_threadpool(stream.read, size):
            yield chunk
    finally:
        stream.close()
