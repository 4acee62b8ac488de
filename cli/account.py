"""``ledger account ...``: the accounts of the service and what each may do.

The command line on a ledger file acts as the site's local admin (docs/service.md): it
may add accounts, grant roles and issue tokens. Adding an account and granting its role
are one unit: both events are stored, or neither.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Literal

import click

from cli.main import Session, pass_session
from cli.output import print_json, say, table
from ledger.application.access import Membership
from ledger.application.accounts import Accounts, check_password
from ledger.application.service import LeagueLedger
from ledger.errors import InvalidInput
from ledger.words import plural


@click.group()
def account() -> None:
    """Accounts for `ledger serve`: add them, grant and remove roles, issue API tokens,
    revoke."""


def read_password(from_stdin: bool, prompt: bool) -> str | None:
    if from_stdin:
        line = sys.stdin.readline().rstrip("\r\n")
        if not line:
            raise InvalidInput("--password-stdin read no password from standard input")
        return line
    if prompt and sys.stdin.isatty():
        return str(click.prompt("Password", hide_input=True, confirmation_prompt=True))
    return None


@account.command("add")
@click.argument("name")
@click.option(
    "--role",
    type=click.Choice(["admin", "commissioner", "coach"]),
    required=True,
    help="admin (the site), commissioner (of the league) or coach (of --team in the league);"
    " the league is ledger's own option, before 'account': 'ledger --league SLUG account"
    " add ...' (or -l SLUG).",
)
@click.option("--team", "teams", multiple=True, help="A team the coach coaches (repeatable).")
@click.option("--display-name", help="The name shown for the account (default: NAME).")
@click.option("--password-stdin", is_flag=True, help="Read the password from standard input.")
@pass_session
def add(
    session: Session,
    name: str,
    role: str,
    teams: tuple[str, ...],
    display_name: str | None,
    password_stdin: bool,
) -> None:
    """Add the account NAME (or grant a role to an existing one) with a password.

    A commissioner or a coach is granted in the league named before 'account' (ledger's
    own --league, as for every command): 'ledger --league demo account add jay --role
    coach --team reikland-reavers'."""
    password = read_password(password_stdin, prompt=True)
    if password is not None:
        check_password(password)  # before anything is written: a refused add writes nothing
    ledger = session.ledger()
    accounts = Accounts(ledger)
    with ledger.atomic():
        if not accounts.exists(name):
            accounts.add(name, display_name, by=session.user, admin=role == "admin")
        elif role == "admin":
            accounts.make_admin(name, by=session.user)
        if role != "admin":
            league = session.league()
            chosen: Literal["coach", "commissioner"] = (
                "coach" if role == "coach" else "commissioner"
            )
            accounts.grant(league, name, chosen, teams, by=session.user)
    if password is not None:
        accounts.set_password(name, password)
    where = "" if role == "admin" else f" in league {session.league()}"
    coached = f" of {', '.join(teams)}" if teams else ""
    unset = "" if password or accounts.has_password(name) else " (no password yet)"
    say(f"Account {name}: {role}{coached}{where}{unset}.")


@account.command("password")
@click.argument("name")
@click.option("--password-stdin", is_flag=True, help="Read the password from standard input.")
@click.option("--reason", help="Why (kept in the site's log).")
@pass_session
def password(session: Session, name: str, password_stdin: bool, reason: str | None) -> None:
    """Set the password NAME signs in with (stored as an argon2 hash only), as when its
    owner forgot it: the site's log says who set it, and NAME's browser sessions end."""
    chosen = read_password(password_stdin, prompt=True)
    if chosen is None:
        raise InvalidInput("give the password on standard input (--password-stdin)")
    ledger = session.ledger()
    Accounts(ledger).reset_password(name, chosen, by=session.user, reason=reason)
    ended = signed_out(ledger, name)
    say(f"Password of {name} set; {plural(ended, 'browser session')} signed out.")


def signed_out(ledger: LeagueLedger, name: str) -> int:
    """End the account's browser sessions of ``ledger serve`` (the service's own table,
    imported only here: the command line needs nothing else of the service)."""
    from ledger.web.auth import Sessions

    return Sessions(ledger.read_models.engine).end_others(name, keep=None)


@account.command("token")
@click.argument("name")
@pass_session
def token(session: Session, name: str) -> None:
    """Issue a new API token for NAME and print it: it is shown this once only."""
    click.echo(Accounts(session.ledger()).issue_token(name))


@account.command("list")
@click.option("--json", "as_json", is_flag=True, help="As JSON.")
@pass_session
def list_(session: Session, as_json: bool) -> None:
    """Every account, its roles and its tokens (never a secret)."""
    accounts = Accounts(session.ledger())
    found = [
        (row, accounts.memberships(row.account), live_tokens(accounts, row.account))
        for row in accounts.all()
    ]
    if as_json:
        print_json(
            [
                {
                    "account": row.account,
                    "name": row.name,
                    "admin": row.admin,
                    "revoked": row.revoked,
                    "leagues": {s: {"role": m.role, "teams": list(m.teams)} for s, m in ms.items()},
                    "tokens": tokens,
                }
                for row, ms, tokens in found
            ]
        )
        return
    if not found:
        say("No accounts yet: add one with 'ledger account add NAME --role admin'.")
        return
    rows = [
        [
            row.account,
            row.name,
            roles_text(row.admin, ms),
            ", ".join(tokens) or "-",
            "revoked" if row.revoked else "active",
        ]
        for row, ms, tokens in found
    ]
    say(table(["account", "name", "roles", "tokens", "status"], rows))


def live_tokens(accounts: Accounts, account: str) -> list[str]:
    return [token for token, _, revoked in accounts.tokens(account) if revoked is None]


def roles_text(admin: bool, memberships: Mapping[str, Membership]) -> str:
    found = ["admin"] if admin else []
    for slug, member in memberships.items():
        teams = f" ({', '.join(member.teams)})" if member.teams else ""
        found.append(f"{member.role} of {slug}{teams}")
    return "; ".join(found) or "-"


@account.command("revoke")
@click.argument("name")
@click.option(
    "--token",
    "token_id",
    metavar="ID",
    help="Revoke this one API token of NAME's only (its id, the part after bbl_, as"
    " 'account list' shows it): the account and its other tokens stay.",
)
@click.option("--reason", help="Why (kept in the site's log).")
@pass_session
def revoke(session: Session, name: str, token_id: str | None, reason: str | None) -> None:
    """NAME can no longer sign in, and its API tokens stop working at once (with --token,
    only that token stops)."""
    ledger = session.ledger()
    if token_id is not None:
        Accounts(ledger).revoke_token(name, token_id, by=session.user, reason=reason)
        say(f"Token {token_id} of {name} revoked; {name} still signs in.")
        return
    Accounts(ledger).revoke(name, by=session.user, reason=reason)
    signed_out(ledger, name)
    say(f"Account {name} revoked; its tokens and browser sessions no longer work.")


@account.command("remove")
@click.argument("name")
@click.option("--reason", help="Why (kept in the league's log).")
@pass_session
def remove(session: Session, name: str, reason: str | None) -> None:
    """NAME no longer has a role in the league (ledger's own --league, before 'account':
    'ledger --league SLUG account remove NAME'): a coach who left it. The account still
    signs in, and keeps its roles in other leagues."""
    league = session.league()
    Accounts(session.ledger()).remove(league, name, by=session.user, reason=reason)
    say(f"Account {name} no longer has a role in league {league}.")


COMMANDS = [account]
