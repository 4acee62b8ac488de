"""Account commands: refused ones write nothing; a password set for another account is
recorded and signs it out."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ledger.application.accounts import Accounts
from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.domain.events import PasswordSet, TokenRevoked
from ledger.domain.log import SITE_ID
from ledger.errors import Unauthenticated
from ledger.web.auth import Sessions
from tests.cli.inprocess import run_argv, run_ledger


def test_a_password_too_short_adds_no_account(tmp_path: Path) -> None:
    db = tmp_path / "owl.db"
    run_ledger(db, "league", "create", "owl", "--name", "Owl", "--ruleset", "bb2025", check=True)
    ledger = str(Path(sys.executable).with_name("ledger"))
    done = subprocess.run(
        [ledger, "--db", str(db), "account", "add", "ann", "--role", "admin", "--password-stdin"],
        input="short\n",
        capture_output=True,
        text=True,
    )
    assert done.returncode != 0
    assert done.stderr.strip().splitlines() == [
        "error[invalid-input]: a password needs 8 to 1024 characters (this one has 5)"
    ]
    listed = run_ledger(db, "account", "list", check=True).out
    assert "ann" not in listed


def test_a_sites_first_admin_starts_its_ledger(tmp_path: Path) -> None:
    """A site run from the browser starts with its admin, who creates the leagues there:
    ``account add`` on a file that is not there yet makes the ledger (as ``league create``
    does), and says so."""
    db = tmp_path / "site.db"
    done = run_ledger(db, "account", "add", "boss", "--role", "admin")
    assert done.code == 0, done.err
    assert done.err.strip() == f"ledger: created a new ledger at {db}"
    listed = run_argv(["ledger", "--db", str(db), "account", "list"])
    assert listed.code == 0, listed.err
    assert "boss" in listed.out


def test_a_coach_added_where_there_is_no_ledger_leaves_no_file(tmp_path: Path) -> None:
    """A coach's role is of a league, which a new file does not hold: refused, no file."""
    db = tmp_path / "site.db"
    done = run_ledger(db, "account", "add", "jay", "--role", "coach")
    assert done.code == 1
    assert done.error_line.startswith("error[unknown-league]: this ledger has no league yet")
    assert list(tmp_path.iterdir()) == []


def test_a_coach_who_left_is_removed_from_the_league_and_keeps_the_account(
    tmp_path: Path,
) -> None:
    db = tmp_path / "owl.db"
    run_ledger(db, "league", "create", "owl", "--name", "Owl", "--ruleset", "bb2025", check=True)
    register = ["team", "register", "reavers", "--name", "Reavers", "--coach", "Jay"]
    run_ledger(db, *register, "--roster", "human", check=True)
    run_ledger(db, "account", "add", "tester", "--role", "admin", check=True)  # run_ledger's --as
    run_ledger(db, "account", "add", "boss", "--role", "commissioner", check=True)
    run_ledger(db, "account", "add", "jay", "--role", "coach", "--team", "reavers", check=True)
    done = run_ledger(db, "account", "remove", "jay", "--reason", "moved away")
    assert done.code == 0, done.err
    assert done.out.strip() == "Account jay no longer has a role in league owl."
    listed = run_ledger(db, "account", "list", "--json", check=True).out
    assert '"account":"jay"' in listed.replace(" ", "")
    assert "coach of owl" not in run_ledger(db, "account", "list", check=True).out
    again = run_ledger(db, "account", "remove", "jay")
    assert again.code == 2
    assert again.error_line == "error[invalid-input]: account 'jay' has no role in league owl"
    last = run_ledger(db, "account", "remove", "boss")
    assert last.code == 1
    assert last.error_line == (
        "error[not-allowed]: boss is league owl's only commissioner: make another account"
        " its commissioner before you remove them"
    )


def test_a_role_granted_to_an_account_with_a_password_does_not_say_it_has_none(
    tmp_path: Path,
) -> None:
    db = tmp_path / "owl.db"
    run_ledger(db, "league", "create", "owl", "--name", "Owl", "--ruleset", "bb2025", check=True)
    team = ("team", "register", "men", "--name", "Men", "--coach", "Ann", "--roster", "human")
    run_ledger(db, *team, check=True)
    ledger = str(Path(sys.executable).with_name("ledger"))
    admin = [
        ledger,
        "--db",
        str(db),
        "account",
        "add",
        "ann",
        "--role",
        "admin",
        "--password-stdin",
    ]
    subprocess.run(admin, input="a good password\n", capture_output=True, text=True, check=True)
    as_ann = ["ledger", "--db", str(db), "--as", "ann", "account", "add"]
    granted = run_argv([*as_ann, "ann", "--role", "coach", "--team", "men"])
    assert granted.out.strip() == "Account ann: coach of men in league owl.", granted.err
    fresh = run_argv([*as_ann, "bob", "--role", "coach", "--team", "men"])
    assert fresh.out.strip() == "Account bob: coach of men in league owl (no password yet)."


def test_a_password_set_for_a_forgetful_owner_signs_them_out_and_is_recorded(
    tmp_path: Path,
) -> None:
    """``account password NAME``: the site's log says who set it and why (never the
    password), and NAME's browser sessions of ``ledger serve`` end."""
    db = tmp_path / "site.db"
    run_ledger(db, "account", "add", "tester", "--role", "admin", check=True)
    run_ledger(db, "account", "add", "ann", "--role", "admin", check=True)
    ledger = open_ledger(Settings(sqlite_path=db))
    try:
        phone, _ = Sessions(ledger.read_models.engine).start("ann")
    finally:
        close_ledger(ledger)
    done = password(db, "ann", "a-new-long-secret", "--reason", "forgot it")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "Password of ann set; 1 browser session signed out."
    ledger = open_ledger(Settings(sqlite_path=db))
    try:
        assert Sessions(ledger.read_models.engine).find(phone) is None
        assert Accounts(ledger).sign_in("ann", "a-new-long-secret").account == "ann"
        stored = ledger.recorder.select_events(SITE_ID, desc=True, limit=1)[0]
        last = ledger.source.decode(stored)
    finally:
        close_ledger(ledger)
    assert isinstance(last, PasswordSet)
    assert (last.login, last.reason) == ("ann", "forgot it")
    assert b"a-new-long-secret" not in stored.state
    run_ledger(db, "account", "revoke", "ann", check=True)
    refused = password(db, "ann", "another-long-secret")
    assert refused.returncode == 1
    assert (
        refused.stderr.strip() == "error[not-allowed]: account 'ann' is revoked: it cannot sign in"
    )


def password(db: Path, account: str, secret: str, *more: str) -> subprocess.CompletedProcess[str]:
    ledger = str(Path(sys.executable).with_name("ledger"))
    line = [ledger, "--db", str(db), "--as", "tester", "account", "password", account]
    return subprocess.run(
        [*line, "--password-stdin", *more], input=f"{secret}\n", capture_output=True, text=True
    )


def test_one_token_revoked_stops_alone_and_is_recorded(tmp_path: Path) -> None:
    db = tmp_path / "site.db"
    run_ledger(db, "account", "add", "tester", "--role", "admin", check=True)
    first = run_ledger(db, "account", "token", "tester", check=True).out.strip()
    second = run_ledger(db, "account", "token", "tester", check=True).out.strip()
    token_id = first.split("_")[1]
    done = run_ledger(db, "account", "revoke", "tester", "--token", token_id, "--reason", "leaked")
    assert done.code == 0, done.err
    assert done.out.strip() == f"Token {token_id} of tester revoked; tester still signs in."
    ledger = open_ledger(Settings(sqlite_path=db))
    try:
        accounts = Accounts(ledger)
        assert accounts.by_token(second).account == "tester"
        with pytest.raises(Unauthenticated):
            accounts.by_token(first)
        last = ledger.source.decode(ledger.recorder.select_events(SITE_ID, desc=True, limit=1)[0])
    finally:
        close_ledger(ledger)
    assert isinstance(last, TokenRevoked)
    assert (last.login, last.token, last.reason) == ("tester", token_id, "leaked")
    again = run_ledger(db, "account", "revoke", "tester", "--token", token_id)
    assert again.code == 1
    assert (
        again.error_line
        == f"error[unknown-token]: account 'tester' has no working token '{token_id}'"
    )


def test_an_account_name_the_books_cannot_hold_is_said_as_a_name(tmp_path: Path) -> None:
    db = tmp_path / "site.db"
    done = run_ledger(db, "account", "add", "New Bie", "--role", "admin")
    assert done.code == 2
    assert done.error_line == (
        "error[invalid-input]: an account's name must be lower-case letters, digits and"
        " . _ - (at most 64 characters), not 'New Bie'"
    )
