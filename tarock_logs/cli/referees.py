"""``tarock referees``: the referees file a public dashboard's referees log in with.

The file (``tarock dashboard --users FILE``) is YAML in the layout of streamlit-authenticator,
the login library the dashboard uses (``dashboard/access.py``): ``credentials.usernames`` maps
each user name to a display ``name`` and a bcrypt ``password`` hash (never the password), and
``cookie`` names the re-authentication cookie and holds its random signing ``key``. The file
is written with mode 0600: it is the server's secret.
"""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path
from typing import Annotated, Any

import typer

from tarock_logs.cli.common import ExitCode, QuietHelpGroup, app, fail

referees_app = typer.Typer(
    cls=QuietHelpGroup,
    help="Manage the referees of a public dashboard (`--users FILE`).",
    add_completion=False,
)
app.add_typer(referees_app, name="referees")

_USER = re.compile(r"^[A-Za-z0-9_.@-]{1,64}$")


def _read(path: Path) -> dict[str, Any]:
    import yaml

    if not path.exists():
        return {
            "cookie": {"name": "tarock_referee", "key": secrets.token_hex(32), "expiry_days": 1},
            "credentials": {"usernames": {}},
        }
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise fail(f"cannot read {path}: {exc}") from exc
    if not isinstance(data, dict):
        raise fail(f"{path} is not a referees file")
    data.setdefault("cookie", {}).setdefault("key", secrets.token_hex(32))
    data["cookie"].setdefault("name", "tarock_referee")
    data["cookie"].setdefault("expiry_days", 1)
    data.setdefault("credentials", {}).setdefault("usernames", {})
    return data


def _write(path: Path, data: dict[str, Any]) -> None:
    import yaml

    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        yaml.safe_dump(data, fh, sort_keys=True, allow_unicode=True)
    tmp.replace(path)


def hash_password(password: str) -> str:
    """The bcrypt hash of ``password`` (what the login library checks)."""
    import bcrypt

    return bcrypt.hashpw(password.encode("utf-8"), bcrypt.gensalt()).decode("ascii")


@referees_app.command("add")
def add(
    user: Annotated[str, typer.Argument(help="User name to log in with.")],
    users: Annotated[Path, typer.Option("--users", help="The referees file.")],
    name: Annotated[str | None, typer.Option("--name", help="Display name.")] = None,
    password: Annotated[
        str | None,
        typer.Option(
            "--password",
            envvar="TAROCK_REFEREE_PASSWORD",
            help="Asked for (twice, not echoed) when not given (or TAROCK_REFEREE_PASSWORD).",
        ),
    ] = None,
) -> None:
    """Add a referee (or set a referee's password) in the referees file."""
    if password is None:
        import getpass

        password = getpass.getpass("Password: ")
        if getpass.getpass("Repeat the password: ") != password:
            raise fail("the two passwords differ", ExitCode.USAGE)
    if not _USER.fullmatch(user):
        raise fail("a user name is 1-64 letters, digits and . _ @ -", ExitCode.USAGE)
    if len(password) < 8:
        raise fail("a password has at least 8 characters", ExitCode.USAGE)
    data = _read(users)
    data["credentials"]["usernames"][user] = {
        "name": name or user,
        "password": hash_password(password),
        "email": f"{user}@referees.invalid",
    }
    _write(users, data)
    typer.echo(f"referee {user} written to {users}")


@referees_app.command("remove")
def remove(
    user: Annotated[str, typer.Argument(help="User name.")],
    users: Annotated[Path, typer.Option("--users", help="The referees file.")],
) -> None:
    """Remove a referee from the referees file."""
    data = _read(users)
    if data["credentials"]["usernames"].pop(user, None) is None:
        raise fail(f"no referee {user} in {users}", ExitCode.USAGE)
    _write(users, data)
    typer.echo(f"referee {user} removed from {users}")
