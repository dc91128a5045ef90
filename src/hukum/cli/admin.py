"""``hukum admin``: what the people who run a server do from its command line, e.g. make
an account a moderator (``grant-moderator NAME``) or an ordinary player again
(``revoke-moderator NAME``)."""

from __future__ import annotations

import argparse

from rich.console import Console

from hukum.cli.args import Commands

__all__ = ["add", "set_role"]


def set_role(url: str, username: str, role: str) -> str | None:
    """Give the account whose user name is ``username`` (compared as sign-in compares it:
    case and look-alikes folded) the role ``role``; its user name, or None if no account
    has it."""
    from sqlalchemy import select, update

    from hukum.online.names import username_key
    from hukum.server.db import Store, make_engine, migrate
    from hukum.server.identity.models import Player

    migrate(url)
    store = Store(make_engine(url))
    try:
        with store.session() as s:
            key = username_key(username)
            player = s.scalars(select(Player).where(Player.username_key == key)).first()
            if player is None:
                return None
            s.execute(update(Player).where(Player.id == player.id).values(role=role))
            s.commit()
            return player.username
    finally:
        store.close()


def _run(args: argparse.Namespace, out: Console) -> int:
    from hukum.server.app import database_url

    role = "moderator" if args.action == "grant-moderator" else "player"
    found = set_role(database_url(args.database_url), args.name, role)
    if found is None:
        print(f"hukum admin: error: no account has the user name {args.name!r}")
        return 1
    if role == "moderator":
        print(f"{found} is a moderator now")
    else:
        print(f"{found} is no longer a moderator")
    return 0


def add(commands: Commands) -> None:
    """Add ``admin`` to the command's subparsers."""
    admin = commands.add_parser(
        "admin",
        help="run a server: make an account a moderator, or no longer one",
        description="Change the server's database from its command line. A moderator sees "
        "the reports at /moderation and may warn, suspend or close a reported account.",
    )
    actions = admin.add_subparsers(dest="action", metavar="ACTION", required=True)
    for action, text in (
        ("grant-moderator", "make the account with this user name a moderator"),
        ("revoke-moderator", "make the moderator with this user name a player again"),
    ):
        one = actions.add_parser(action, help=text, description=text[0].upper() + text[1:] + ".")
        one.add_argument("name", metavar="NAME", help="the account's user name")
        one.add_argument(
            "--database-url",
            metavar="URL",
            help="SQLAlchemy URL (default: $HUKUM_DATABASE_URL, else sqlite:///hukum.db)",
        )
    admin.set_defaults(run=_run)
