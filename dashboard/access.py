"""Who is looking: the public view and the referee's view (the one home of roles).

The server runs in one of two **access modes**, chosen by ``tarock dashboard --access``:

* ``local`` (the default on a loopback address: the person at this machine): everything,
  as a referee sees it;
* ``public`` (the default on any other address): every visitor sees the **public view**:
  players' names replaced by their pseudonyms on the server (the masking is not a visitor's
  toggle; statistics are masked in their SQL), no hand entry, downloads without real names.
  A **referee** (or organiser) logs in to see names, enter hands and accept entries.

How a referee logs in, in order:

1. **The club's identity provider**, through Streamlit's own ``st.login`` (OpenID Connect),
   when the app's secrets have an ``[auth]`` section (``.streamlit/secrets.toml``, see
   Streamlit's documentation); every account the provider lets in is a referee.
2. **A referees file** (``tarock dashboard --users FILE``; accounts added with
   ``tarock referees add``): names and bcrypt password hashes, checked by
   `streamlit-authenticator <https://github.com/mkhorasani/Streamlit-Authenticator>`_, the
   maintained login library of the Streamlit community (hashed passwords, a
   signed re-authentication cookie), for a club without an identity provider. Chosen over an
   authenticating reverse proxy because a club then runs one program, not two.

Without either, a public server has no referee: nothing is unmasked and nothing is entered.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path
from typing import Any

import streamlit as st

#: the access modes (``tarock dashboard --access``)
ACCESS_MODES = ("local", "public")
#: the environment variables ``tarock dashboard`` sets for the server
ACCESS_ENV = "TAROCK_ACCESS"
USERS_ENV = "TAROCK_USERS"


def access_mode() -> str:
    """The server's access mode (``local`` unless ``tarock dashboard`` said otherwise)."""
    mode = os.environ.get(ACCESS_ENV, "local")
    return mode if mode in ACCESS_MODES else "public"


def users_file() -> Path | None:
    """The referees file of this server (``--users``), or None."""
    value = os.environ.get(USERS_ENV)
    return Path(value) if value else None


def _oidc_configured() -> bool:
    try:
        return "auth" in st.secrets
    except Exception:  # noqa: BLE001 - no secrets file: no identity provider
        return False


def _oidc_logged_in() -> bool:
    try:
        return bool(st.user.is_logged_in)
    except Exception:  # noqa: BLE001 - st.user without [auth]
        return False


def is_referee() -> bool:
    """True when this visitor sees the referee's view: always on a ``local`` server; on a
    ``public`` one after logging in."""
    if access_mode() == "local":
        return True
    if _oidc_configured() and _oidc_logged_in():
        return True
    return st.session_state.get("authentication_status") is True


def referee_name() -> str | None:
    """The logged-in referee's display name (None on a local server or for a visitor)."""
    if access_mode() == "local":
        return None
    if _oidc_configured() and _oidc_logged_in():
        return str(st.user.get("name") or st.user.get("email") or "")
    if st.session_state.get("authentication_status") is True:
        return str(st.session_state.get("name") or st.session_state.get("username") or "")
    return None


def _load_users(path: Path) -> dict[str, Any] | None:
    import yaml

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return None
    return data if isinstance(data, dict) and "credentials" in data else None


#: the login form's fields (session-state keys)
_USER_KEY = "referee_login_user"
_PASSWORD_KEY = "referee_login_password"
#: a digest of the last submission refused (so that it is not checked again in every run)
_REFUSED_KEY = "_referee_login_refused"
#: set when a referee has logged in with the form, until the browser has the login's cookie
_COOKIE_DUE_KEY = "_referee_cookie_due"
#: keys the digests of refused submissions (this process's; nothing stored outlives it)
_DIGEST_KEY = secrets.token_bytes(32)


def _digest(user: str, password: str) -> str:
    return hmac.new(_DIGEST_KEY, f"{user}\0{password}".encode(), hashlib.sha256).hexdigest()


def _login_form(controller: Any, tr: Any) -> None:
    """The referee login form, checked with streamlit-authenticator's controller.

    A login is asked for by the form's **submitted values**, not only by its button's press:
    a form's values reach the server only when it is submitted, so values not yet checked
    are a submit even when the press itself was lost. (It was: the press is a one-shot
    trigger, and a run of the page asked for while the submit's run has begun, such as the
    one the library's cookie component asks for when it reports the browser's cookies,
    replaces that run; the replacing run no longer sees the press, but still the values.)
    A refused submission is remembered by a keyed digest, so that it is refused once, not
    checked again in every run; pressing again checks it again."""
    ss = st.session_state
    with st.form("referee_login"):
        st.subheader(tr("Referee login"))
        user = st.text_input(tr("User name"), key=_USER_KEY, autocomplete="off")
        password = st.text_input(
            tr("Password"), type="password", key=_PASSWORD_KEY, autocomplete="off"
        )
        pressed = st.form_submit_button(tr("Log in"))
    if pressed or (user and password and _digest(user, password) != ss.get(_REFUSED_KEY)):
        # (every read and write of the session state may end this run for a newer one: the
        # cookie is asked for first, the refusal written last; a run ended before either
        # checks the values again)
        ss[_COOKIE_DUE_KEY] = True
        if controller.login(user, password):
            st.rerun()  # the page list (the entry page) and the cookie, in the next run
        ss.pop(_COOKIE_DUE_KEY, None)
        ss[_REFUSED_KEY] = _digest(user or "", password or "")
    if ss.get("authentication_status") is False:
        st.error(tr("User name or password is wrong."))


def _cookie_login(auth: Any) -> None:
    """Log a returning referee in with the signed cookie of an earlier login (as
    streamlit-authenticator's ``login`` does, without its sleep)."""
    from streamlit_authenticator.utilities import LoginError

    token = auth.cookie_controller.get_cookie()
    if token:
        try:
            auth.authentication_controller.login(token=token)
        except LoginError:  # a referee since removed from the file: a visitor
            pass


def _set_cookie(auth: Any) -> None:
    """Until the browser has said that it has set the login's cookie, have it set (again,
    with a fresh expiry): a run replaced before it drew the cookie component does not leave
    the referee without one. The library's cookie component says so with its value, ``True``
    under its key ``set``."""
    if st.session_state.get("set") is True:
        st.session_state.pop(_COOKIE_DUE_KEY, None)
        return
    auth.cookie_controller.set_cookie()


def login_box(tr: Any) -> None:
    """On a public server, the sidebar's referee login (or the logged-in referee and a log-out
    button); nothing on a local server. ``tr`` words the labels in the page's language."""
    if access_mode() == "local":
        return
    side = st.sidebar
    if _oidc_configured():
        if _oidc_logged_in():
            side.caption(tr("Referee: {name}", name=referee_name() or ""))
            if side.button(tr("Log out"), key="oidc_logout"):
                st.logout()
        elif side.button(tr("Referee login"), key="oidc_login"):
            st.login()
        return
    path = users_file()
    if path is None:
        return
    users = _load_users(path)
    if users is None:
        side.caption(tr("Referee login is not available: the referees file cannot be read."))
        return
    import streamlit_authenticator as stauth
    from streamlit_authenticator.controllers import AuthenticationController

    cookie = users.get("cookie") or {}
    cookie_name = str(cookie.get("name") or "tarock_referee")
    cookie_key = str(cookie.get("key") or "")

    def authenticate() -> Any:
        # the library's view; it draws its cookie component, which reports the browser's
        # cookies in a run of its own once its frame has loaded: drawn only for a referee
        # (and a browser with the login's cookie), not in a visitor's every page load
        return stauth.Authenticate(
            users["credentials"],
            cookie_name,
            cookie_key,
            float(cookie.get("expiry_days") or 1),
            auto_hash=False,
            # the library's login sleeps this long (0.7 s by default) in every run of a
            # page for a visitor not logged in, waiting for the login cookie; its form is
            # not used here (see _login_form), and the cookie comes with the page's request
            login_sleep_time=0,
        )

    ss = st.session_state
    with side:
        auth = None
        if ss.get("authentication_status") is not True and cookie_name in st.context.cookies:
            auth = authenticate()  # a returning referee's signed cookie
            _cookie_login(auth)
        if ss.get("authentication_status") is True:
            auth = auth or authenticate()
            st.caption(tr("Referee: {name}", name=referee_name() or ""))
            if ss.get(_COOKIE_DUE_KEY):
                _set_cookie(auth)
            auth.logout(tr("Log out"), location="sidebar", key="referee_logout")
            return
        controller = AuthenticationController(
            users["credentials"], None, False, None, None, cookie_key, None
        )
        with st.expander(tr("Referee login"), expanded=False):
            _login_form(controller, tr)
