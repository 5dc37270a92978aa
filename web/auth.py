"""Who may change the table: the PIN (header or login session), CSRF tokens, login rate limits.

Viewing needs nothing. Every state-changing request needs the table PIN, either in the
``X-Companion-Pin`` header (scripts, the hardware-less table) or through a session opened by
logging in with it. A session request must also carry the session's CSRF token (form field
``csrf_token`` or header ``X-CSRF-Token``): the cookie alone never changes the table, even if
a browser were tricked into sending it. Wrong PINs, from the header or the login form, count
against one limit per client address, so the PIN cannot be guessed quickly.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any, TypeVar, cast
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    Response,
    redirect,
    render_template,
    request,
    session,
)

from web.errors import json_error
from web.limiter import AttemptLimiter as AttemptLimiter  # kept importable from here
from web.state import web_state

_log = logging.getLogger(__name__)

PIN_HEADER = "X-Companion-Pin"
CSRF_HEADER = "X-CSRF-Token"
CSRF_FIELD = "csrf_token"
MAX_PIN_LENGTH = 64
# The runtime hashes PINs slowly on purpose (PBKDF2, about a second on a Pi). A PIN it
# confirmed is remembered, as a keyed digest, for this long, so a script sending the PIN
# header with every action does not pay that each time.
PIN_CACHE_S = 300.0

F = TypeVar("F", bound=Callable[..., Any])

bp = Blueprint("auth", __name__)


@dataclass(frozen=True)
class PinCheck:
    """The result of checking a PIN: ``ok``, or the HTTP error to answer with."""

    ok: bool
    error: Response | None = None


def client_address() -> str:
    # waitress serves the LAN directly; a forwarded-for header is the client's own claim.
    return request.remote_addr or "unknown"


def csrf_token() -> str:
    """The session's CSRF token, created on first use (templates and /api/session call it)."""
    token = session.get("csrf")
    if not isinstance(token, str):
        token = secrets.token_urlsafe(32)
        session["csrf"] = token
    return token


def _key_mark() -> str:
    """A short mark of the table's current session key: a session made under an older key
    (before ``companion pin --new``) is no longer logged in, without a restart."""
    secret = web_state().runtime.session_secret()
    return hashlib.sha256(secret.encode()).hexdigest()[:16]


def logged_in() -> bool:
    return session.get("auth") is True and session.get("key") == _key_mark()


def check_pin(pin: Any) -> PinCheck:
    """Check ``pin`` against the table's, counting failures against the client's limit."""
    who = client_address()
    limiter = web_state().limiter
    wait = limiter.retry_after(who)
    if wait is not None:
        everyone = limiter.locked_for() is not None
        err = json_error(429, "too_many_attempts",
                         "too many wrong PINs at this table; every login waits" if everyone
                         else "too many wrong PINs; wait and try again",
                         retry_after=round(wait), everyone=everyone)
        err.headers["Retry-After"] = str(max(1, round(wait)))
        return PinCheck(False, err)
    if not isinstance(pin, str) or not 1 <= len(pin) <= MAX_PIN_LENGTH or not pin.isprintable():
        # isprintable: no control characters, nor a lone surrogate (JSON's "\\ud800"), which
        # no encoding takes
        return PinCheck(False, json_error(400, "bad_pin", "the PIN must be a non-empty string"))
    ws = web_state()
    # keyed by the table's current session key: a PIN confirmed before ``companion pin --new``
    # rolled both is never taken from the cache afterwards
    key = hmac.new(ws.runtime.session_secret().encode(), pin.encode(), "sha256").digest()
    now = ws.clock()
    if ws.pin_cache.get(key, -1.0) < now:
        if not ws.runtime.check_pin(pin):
            ws.limiter.failed(who)
            _log.info("wrong PIN from %s", who)
            locked = ws.limiter.locked_for()
            if locked is not None:  # this wrong PIN closed the door for everyone
                _log.warning("PIN logins locked for %.0f s after a burst of wrong PINs", locked)
                ws.runtime.lock_logins(locked)
            return PinCheck(False, json_error(401, "pin_wrong", "wrong PIN"))
        ws.pin_cache.clear()  # only the current PIN is ever worth remembering
        ws.pin_cache[key] = now + PIN_CACHE_S
    ws.limiter.succeeded(who)
    return PinCheck(True)


def _csrf_ok() -> bool:
    expected = session.get("csrf")
    given = request.headers.get(CSRF_HEADER) or request.form.get(CSRF_FIELD)
    return (
        isinstance(expected, str)
        and isinstance(given, str)
        and hmac.compare_digest(expected.encode(), given.encode())
    )


def require_pin(view: F) -> F:
    """Allow the request with a valid PIN header, or a logged-in session plus its CSRF token."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if PIN_HEADER in request.headers:
            result = check_pin(request.headers[PIN_HEADER])
            if not result.ok:
                return result.error
            return view(*args, **kwargs)
        if not logged_in():
            return json_error(401, "login_required",
                              f"log in with the table PIN or send the {PIN_HEADER} header")
        if request.method not in ("GET", "HEAD") and not _csrf_ok():
            return json_error(403, "csrf", "missing or wrong CSRF token; reload the page")
        return view(*args, **kwargs)

    return cast(F, wrapper)


def _wants_json() -> bool:
    return request.is_json or request.accept_mimetypes.best == "application/json"


def _safe_next(target: str | None) -> str:
    """Only paths on this site, so the login form can't be used to redirect elsewhere."""
    if not target:
        return "/"
    parts = urlsplit(target)
    # browsers read "/\\host" like "//host"; control characters have no place in a path
    if (parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//")
            or "\\" in target or not target.isprintable()):
        return "/"
    return target


@bp.post("/login")
def login() -> Any:
    """Open a session with the table PIN (JSON ``{"pin"}`` or the login form)."""
    if request.is_json:
        body = request.get_json(silent=True)
        if not isinstance(body, dict):
            return json_error(400, "bad_body", "send a JSON object {\"pin\": \"...\"}")
        pin = body.get("pin")
    else:
        pin = request.form.get("pin")
    if not _csrf_ok():
        error = json_error(403, "csrf", "missing or wrong CSRF token; reload the page")
        return error if _wants_json() else _login_again(error)
    result = check_pin(pin)
    if not result.ok:
        if _wants_json() or result.error is None:
            return result.error
        return _login_again(result.error)
    session.clear()
    session.permanent = True
    session["auth"] = True
    session["key"] = _key_mark()
    token = csrf_token()  # a fresh token for the new session
    _log.info("login from %s", client_address())
    if _wants_json():
        return {"ok": True, "logged_in": True, "csrf": token}
    return redirect(_safe_next(request.form.get("next")), code=303)


def _login_again(error: Response) -> Any:
    """The login form again, saying what went wrong in the page's language: the template
    words the JSON answer's stable ``error`` word and its details (``login.error.<word>``)."""
    body = error.get_json() or {}
    page = render_template("login.html", error=body, next=_safe_next(request.form.get("next")))
    return page, error.status_code


@bp.post("/logout")
def logout() -> Any:
    if not _csrf_ok():
        return json_error(403, "csrf", "missing or wrong CSRF token; reload the page")
    session.clear()
    token = csrf_token()
    if _wants_json():
        return {"ok": True, "logged_in": False, "csrf": token}
    return redirect("/", code=303)


@bp.get("/api/session")
def session_info() -> Any:
    return {"logged_in": logged_in(), "csrf": csrf_token()}


@bp.get("/login")
def login_page() -> Any:
    return render_template("login.html", error=None, next=_safe_next(request.args.get("next")))


def install(app: Any) -> None:
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.jinja_env.globals["logged_in"] = logged_in
