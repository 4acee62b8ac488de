"""Accounts and roles (issue 12): grants are events, secrets are not, and every event a
signed-in account causes records that account and the role it acted in."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from argon2 import PasswordHasher

from ledger.application.access import Actor, Membership, Principal, authorize
from ledger.application.accounts import Accounts
from ledger.application.audit import verify_chain
from ledger.application.commands import AdjustTreasury, Correct
from ledger.application.service import LeagueLedger
from ledger.application.transfer import export_lines
from ledger.domain.log import SITE_ID, league_id
from ledger.domain.state import EventLine
from ledger.errors import Forbidden, InvalidInput, Unauthenticated, UnknownAccount
from tests.integration.test_audit_and_transfer import played_league

CHEAP = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
SECRET = "correct horse battery"


@pytest.fixture
def accounts(ledger: LeagueLedger) -> Accounts:
    return Accounts(ledger, CHEAP)


def league_with_members(ledger: LeagueLedger, accounts: Accounts) -> str:
    slug = played_league(ledger)
    accounts.add("root", "Site Admin", by="setup", admin=True, password=SECRET)
    accounts.add("cmsh", "The Commissioner", by="setup", password=SECRET)
    accounts.add("anna", "Anna Reaver", by="setup", password=SECRET)
    accounts.grant(slug, "cmsh", "commissioner", by="setup")
    accounts.grant(slug, "anna", "coach", ["reavers"], by="setup")
    return slug


def test_accounts_are_events_of_the_site_log_and_grants_of_the_league_log(
    ledger: LeagueLedger, accounts: Accounts
) -> None:
    slug = league_with_members(ledger, accounts)
    site = list(ledger.source.league_events(str(SITE_ID)))
    assert [type(e).__name__ for e in site] == [
        "SiteOpened",
        "AccountAdded",
        "AdminGranted",
        "AccountAdded",
        "AccountAdded",
    ]
    assert verify_chain(ledger.recorder, SITE_ID, "site").ok
    league = list(ledger.source.league_events(str(league_id(slug))))
    assert [type(e).__name__ for e in league[-2:]] == ["MemberGranted", "MemberGranted"]
    anna = accounts.principal("anna")
    assert anna.leagues[slug].teams == ("reavers",)
    assert accounts.principal("root").admin
    assert [league.slug for league in ledger.leagues()] == [slug]  # the site is no league


def test_secrets_are_never_in_the_log_or_an_export(
    ledger: LeagueLedger, accounts: Accounts
) -> None:
    slug = league_with_members(ledger, accounts)
    token = accounts.issue_token("anna")
    exported = b"".join(export_lines(ledger.recorder, slug))
    stored = b"".join(e.state for e in ledger.recorder.select_events(SITE_ID)) + b"".join(
        e.state for e in ledger.recorder.select_events(league_id(slug))
    )
    for secret in (SECRET.encode(), token.encode(), b"argon2"):
        assert secret not in exported
        assert secret not in stored


def test_sign_in_and_tokens(ledger: LeagueLedger, accounts: Accounts) -> None:
    league_with_members(ledger, accounts)
    assert accounts.sign_in("anna", SECRET).account == "anna"
    for account, password in (("anna", "wrong password"), ("nobody", SECRET)):
        with pytest.raises(Unauthenticated, match="wrong account name or password"):
            accounts.sign_in(account, password)
    token = accounts.issue_token("anna")
    assert accounts.by_token(token).account == "anna"
    with pytest.raises(Unauthenticated):
        accounts.by_token(token[:-1] + ("A" if token[-1] != "A" else "B"))
    accounts.revoke("anna", by="root")
    with pytest.raises(Unauthenticated):
        accounts.by_token(token)
    with pytest.raises(Unauthenticated):
        accounts.sign_in("anna", SECRET)


def test_bad_account_input_is_refused(ledger: LeagueLedger, accounts: Accounts) -> None:
    slug = league_with_members(ledger, accounts)
    with pytest.raises(InvalidInput, match="8 to 1024 characters"):
        accounts.add("short", by="root", password="abc")
    with pytest.raises(UnknownAccount):
        accounts.grant(slug, "ghost", "coach", ["reavers"], by="root")
    with pytest.raises(InvalidInput, match="at least one team"):
        accounts.grant(slug, "anna", "coach", [], by="root")


def test_the_acting_account_is_the_who_of_its_events(
    ledger: LeagueLedger, accounts: Accounts
) -> None:
    slug = league_with_members(ledger, accounts)
    anna = Actor(name="Anna Reaver", account="anna", role="coach", via="api", request_id="r1")
    with ledger.acting(anna):
        ledger.handle(AdjustTreasury(slug, "reavers", 1_000), by="typed by the client", reason="x")
    last = list(ledger.source.league_events(str(league_id(slug))))[-1]
    assert (last.recorded_by, last.account, last.acting_as, last.via, last.request_id) == (
        "Anna Reaver",
        "anna",
        "coach",
        "api",
        "r1",
    )
    assert verify_chain(ledger.recorder, league_id(slug), slug).ok
    shown = ledger.view().select(EventLine, league_id=str(league_id(slug)), seq=last.seq)
    assert {ref.who for ref in shown} == {"Anna Reaver (anna, coach)"}  # history, audit pages


COACH = Principal(
    account="anna", name="Anna", leagues={"l": Membership(role="coach", teams=("reavers",))}
)


def test_authorization_by_role() -> None:
    assert authorize(COACH, "l", "hire", team="reavers") == "coach"
    with pytest.raises(Forbidden, match="coaches reavers, not rats"):
        authorize(COACH, "l", "hire", team="rats")
    with pytest.raises(Forbidden, match="only the commissioner"):
        authorize(COACH, "l", "correct")
    with pytest.raises(Forbidden, match="no role in league other"):
        authorize(COACH, "other", "read")
    assert authorize(COACH, "other", "read", public=True) is None
    with pytest.raises(Unauthenticated):
        authorize(None, "l", "read")
    assert authorize(None, "l", "read", public=True) is None


def test_secrets_table_holds_hashes_only(sqlite_ledger: LeagueLedger, tmp_path: Path) -> None:
    accounts = Accounts(sqlite_ledger, CHEAP)
    accounts.add("anna", by="root", password=SECRET)
    token = accounts.issue_token("anna")
    with sqlite3.connect(tmp_path / "ledger.db") as db:
        dump = "\n".join(db.iterdump())
    assert SECRET not in dump
    assert token not in dump


def test_a_leagues_members_version_moves_with_each_grant_and_correction(
    ledger: LeagueLedger, accounts: Accounts
) -> None:
    """The service keeps who each caller is while the leagues' members' versions stand
    still (ledger/web/known.py): each grant and each correction moves its league's to its
    own number, so it only grows, even where a voided grant's refold leaves only the
    earlier grants."""
    slug = league_with_members(ledger, accounts)

    def members_version() -> int:
        return ledger.league_row(slug).members_version

    granted = members_version()
    assert granted == ledger.league_row(slug).version  # anna's grant, the log's last event
    ledger.handle(AdjustTreasury(slug, "reavers", 10_000), by="cmsh", reason="a sponsor")
    assert members_version() == granted  # no role moved
    ledger.handle(Correct(slug, granted, "void"), by="cmsh", reason="granted by mistake")
    assert members_version() == ledger.league_row(slug).version > granted
    assert slug not in accounts.principal("anna").leagues
