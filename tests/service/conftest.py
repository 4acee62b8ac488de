"""The service on a temporary SQLite ledger holding the played demo league and its
accounts: an admin, the commissioner, one coach per team, and an outsider with no role.

The league and accounts are built once per session (about 2 s) into a template file;
each test gets its own copy, so what one test writes no other test sees.
"""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from fastapi import FastAPI
from fastapi.testclient import TestClient

from ledger.application.accounts import Accounts
from ledger.application.service import LeagueLedger
from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.demo import build_demo
from ledger.web.app import create_app
from ledger.web.auth import LOGIN_CSRF_COOKIE
from ledger.web.demo import demo_accounts
from tests.cli.inprocess import ledger_from_script

CHEAP = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
LEAGUE = "demo"
COACHES = {
    "dan": "gouged-eye",
    "steve": "grudgebearers",
    "jay": "reikland-reavers",
    "rob": "skavenblight-scramblers",
}
ACCOUNTS = ("admin", "commissioner", *COACHES, "outsider")


def password_of(account: str) -> str:
    return f"{account}-password"


@dataclass(frozen=True)
class Template:
    db: Path
    tokens: dict[str, str]


@pytest.fixture(scope="session")
def template(tmp_path_factory: pytest.TempPathFactory) -> Template:
    db = tmp_path_factory.mktemp("service") / "template.db"
    ledger = open_ledger(Settings(sqlite_path=db))
    try:
        slug = build_demo(ledger)
        assert slug == LEAGUE
        demo_accounts(ledger, slug, hasher=CHEAP, password=password_of)
        accounts = Accounts(ledger, CHEAP)
        accounts.add("outsider", "Out Sider", by="setup", password=password_of("outsider"))
        tokens = {account: accounts.issue_token(account) for account in ACCOUNTS}
    finally:
        close_ledger(ledger)
    return Template(db=db, tokens=tokens)


@dataclass(frozen=True)
class World:
    db: Path
    tokens: dict[str, str]

    def auth(self, account: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[account]}"}


@pytest.fixture
def world(template: Template, tmp_path: Path) -> World:
    db = tmp_path / "ledger.db"
    for suffix in ("", "-wal", "-shm"):
        source = Path(f"{template.db}{suffix}")
        if source.exists():
            shutil.copyfile(source, Path(f"{db}{suffix}"))
    return World(db=db, tokens=dict(template.tokens))


@pytest.fixture
def app(world: World) -> FastAPI:
    return create_app(Settings(sqlite_path=world.db), hasher=CHEAP)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    # Server errors become 500 problems, as a real client would see them: the tests look
    # at the status (and assert that none is 500) rather than at a re-raised exception.
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def ledger_of(client: TestClient) -> LeagueLedger:
    app: FastAPI = client.app  # type: ignore[assignment]
    ledger: LeagueLedger = app.state.service.ledger
    return ledger


def event_count(client: TestClient) -> int:
    """Every event the store holds, in every league and the site's log."""
    return ledger_of(client).source.head()


@contextlib.contextmanager
def scripted(
    folder: Path, league: str, script: str, account: str
) -> Iterator[tuple[TestClient, str]]:
    """The service on a ledger made in ``folder`` by a script of ``ledger`` commands, with
    the demo's accounts for ``league`` and ``account`` signed in; yields the client and the
    session's CSRF token."""
    db = ledger_from_script(folder, script)
    ledger = open_ledger(Settings(sqlite_path=db))
    try:
        demo_accounts(ledger, league, hasher=CHEAP, password=password_of)
    finally:
        close_ledger(ledger)
    with TestClient(create_app(Settings(sqlite_path=db), hasher=CHEAP)) as client:
        yield client, sign_in(client, account)


def sign_in(client: TestClient, account: str, password: str | None = None) -> str:
    """Sign in through the login form as a browser does; returns the session's CSRF token
    (what the pages put in their forms)."""
    client.get("/login")  # the login page sets the form's CSRF cookie (once pages exist)
    login_csrf = client.cookies.get(LOGIN_CSRF_COOKIE)
    if login_csrf is None:
        login_csrf = "test-login-csrf-token"
        client.cookies.set(LOGIN_CSRF_COOKIE, login_csrf)
    reply = client.post(
        "/login",
        data={"account": account, "password": password or password_of(account), "csrf": login_csrf},
        follow_redirects=False,
    )
    assert reply.status_code == 303, reply.text
    csrf = client.get("/api/session").json()["csrf"]
    assert isinstance(csrf, str)
    return csrf
