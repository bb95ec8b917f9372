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
   maintained login library of the Streamlit community (a login form, hashed passwords, a
   signed re-authentication cookie), for a club without an identity provider. Chosen over an
   authenticating reverse proxy because a club then runs one program, not two.

Without either, a public server has no referee: nothing is unmasked and nothing is entered.
"""

from __future__ import annotations

import os
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

    cookie = users.get("cookie") or {}
    auth = stauth.Authenticate(
        users["credentials"],
        str(cookie.get("name") or "tarock_referee"),
        str(cookie.get("key") or ""),
        float(cookie.get("expiry_days") or 1),
        auto_hash=False,
        # the library sleeps this long (0.7 s by default) in every run of the page for a visitor
        # not logged in, waiting for the login cookie; the cookie component's own rerun brings
        # a returning referee's cookie, so the visitors' every click need not wait
        login_sleep_time=0,
    )
    with side:
        if st.session_state.get("authentication_status") is True:
            st.caption(tr("Referee: {name}", name=referee_name() or ""))
            auth.logout(tr("Log out"), location="sidebar", key="referee_logout")
            return
        with st.expander(tr("Referee login"), expanded=False):
            auth.login(
                location="main",
                fields={
                    "Form name": tr("Referee login"),
                    "Username": tr("User name"),
                    "Password": tr("Password"),
                    "Login": tr("Log in"),
                },
                key="referee_login",
            )
            if st.session_state.get("authentication_status") is False:
                st.error(tr("User name or password is wrong."))
