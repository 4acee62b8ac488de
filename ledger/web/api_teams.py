"""What a team's owner does over the API, beyond hiring and buying (``api_writes``): fire,
retire, let staff go, spend SPP, buy inducements, pay appearance fees, close the post-game
sequence, and choose the re-hires at the re-draft. Each is the ``ledger team ...`` / ``ledger match
...`` command of the same name, run as the account (``guard.Call.write``).

The team is in the path wherever it can be, so the guard authorizes it before the body
is read. Closing a match's post-game sequence names its teams in the body (both, or
one): each is authorized inside the write, and the teams are closed all-or-nothing, as
``ledger match close`` does.
"""

from __future__ import annotations

from fastapi import APIRouter, Response
from pydantic import Field

from ledger.application import commands as cmd
from ledger.application.service import LeagueLedger
from ledger.domain.events import AdvancementKind
from ledger.domain.state import MatchRow
from ledger.domain.values import MOST_BOUGHT, Characteristic, DiceRoll, Given
from ledger.errors import UnknownMatch
from ledger.web.api_writes import Body, Short, Written, receipt
from ledger.web.guard import Call, Calling, Guarded, needs
from ledger.web.problems import PROBLEMS

router = APIRouter(route_class=Guarded, responses=PROBLEMS, tags=["teams"])

TEAM = "/api/leagues/{league}/teams/{team}"
PLAYER = TEAM + "/players/{player}"

Reason = Field(default=None, min_length=1, max_length=2000)
Rolled = list[int] | int
"""A die as the report format gives it: one value, or the values of several dice."""


class Why(Body):
    reason: str | None = Reason


@router.post(PLAYER + "/fire", status_code=201)
@needs("fire")
def fire(
    call: Calling, league: str, team: str, player: str, response: Response, body: Why | None = None
) -> Written:
    """Fire a player (name, ``#number`` or id): off the roster for good."""
    reason = body.reason if body else None
    call.write(
        lambda ledger, by: ledger.handle(cmd.FirePlayer(league, team, player), by=by, reason=reason)
    )
    return Written(**receipt(call, response))


@router.post(PLAYER + "/retire", status_code=201)
@needs("retire")
def retire(
    call: Calling, league: str, team: str, player: str, response: Response, body: Why | None = None
) -> Written:
    """Temporarily retire a player (BB2025): on the roster, out of CTV and the season."""
    reason = body.reason if body else None
    call.write(
        lambda ledger, by: ledger.handle(
            cmd.RetirePlayer(league, team, player), by=by, reason=reason
        )
    )
    return Written(**receipt(call, response))


class Release(Body):
    item: str = Short
    count: int = Field(default=1, ge=1, le=MOST_BOUGHT)
    reason: str | None = Reason


@router.post(TEAM + "/releases", status_code=201)
@needs("release")
def release(call: Calling, league: str, team: str, body: Release, response: Response) -> Written:
    """Let go of sideline staff or other bought items (no refund), as ``ledger team
    release`` does."""
    call.write(
        lambda ledger, by: ledger.handle(
            cmd.Release(league, team, body.item, body.count), by=by, reason=body.reason
        )
    )
    return Written(**receipt(call, response))


class Roll(Body):
    """A roll made at the table: ``{"purpose": "characteristic", "dice": "D8", "values":
    [7]}`` (a D16 in BB2020); a random skill is two ``random_skill`` D6 (``"2D6"``)."""

    purpose: str = Short
    dice: str = Field(pattern=r"^([1-9][0-9]?)?D(3|6|8|16|66|68)$", max_length=4)
    values: list[int] = Field(min_length=1, max_length=8)


class Advance(Body):
    kind: AdvancementKind
    skill: str | None = Field(default=None, min_length=1, max_length=64)
    characteristic: Characteristic | None = None
    dice: list[Roll] = Field(default=[], max_length=8)
    category: str | None = Field(default=None, min_length=1, max_length=64)
    """A random skill's Skill Table column (BB2025, BB2020), or a choice the edition asks
    for (4th edition Big Guys: ``remove_trait``)."""
    roll_missing: bool = False
    """The ledger rolls a characteristic improvement's die or a random skill's Skill Table
    rolls; when they leave a choice not made, the roll is recorded (``AdvancementRolled``)
    and the player's next advancement is taken from it."""
    reason: str | None = Reason


@router.post(PLAYER + "/advancements", status_code=201)
@needs("advance")
def advance(
    call: Calling, league: str, team: str, player: str, body: Advance, response: Response
) -> Written:
    """The player spends SPP on an advancement (``ledger team advance``): a skill, or a
    characteristic with the edition's die rolled at the table or by the ledger
    (``roll_missing``). A roll that leaves a choice is recorded first; the advancement is
    then taken from it, its dice left out."""
    rolls = tuple(
        DiceRoll(purpose=r.purpose, dice=r.dice, values=tuple(r.values)) for r in body.dice
    )
    call.write(
        lambda ledger, by: ledger.handle(
            cmd.AdvancePlayer(
                league,
                team,
                player,
                body.kind,
                skill=body.skill,
                characteristic=body.characteristic,
                dice=rolls,
                category=body.category,
                roll_missing=body.roll_missing,
            ),
            by=by,
            reason=body.reason,
        )
    )
    return Written(**receipt(call, response))


class Inducements(Body):
    match: str = Short
    """The fixture the inducements are bought for."""
    items: dict[Given, int] = Field(default={}, max_length=32)
    """Each inducement and how many (none: the team buys nothing, and says so)."""
    reason: str | None = Reason


@router.post(TEAM + "/inducements", status_code=201)
@needs("inducements")
def inducements(
    call: Calling, league: str, team: str, body: Inducements, response: Response
) -> Written:
    """The team buys its inducements for a fixture (the higher CTV first, then the other
    spends its petty cash), as ``ledger match inducements``."""
    call.write(
        lambda ledger, by: ledger.handle(
            cmd.BuyInducements(league, body.match, team, body.items), by=by, reason=body.reason
        )
    )
    return Written(**receipt(call, response))


class AppearanceFees(Body):
    match: str = Short
    """The match to come the fees are paid for (a fixture, or the id its report will carry)."""
    players: list[Given] = Field(min_length=1, max_length=32)
    """Each player who asks a fee, by id, name or ``#number``; a freebooted star as
    ``HIRELING=COST``, his hireling id in the report to come and his cost."""
    reason: str | None = Reason


@router.post(TEAM + "/appearance-fees", status_code=201)
@needs("appearance_fees")
def appearance_fees(
    call: Calling, league: str, team: str, body: AppearanceFees, response: Response
) -> Written:
    """The team pays its players' appearance fees for a match to come (4th edition), as
    ``ledger match fees``; a player whose fee is unpaid does not play it."""
    call.write(
        lambda ledger, by: ledger.handle(
            cmd.PayAppearanceFees(league, body.match, team, body.players), by=by, reason=body.reason
        )
    )
    return Written(**receipt(call, response))


class Redraft(Body):
    keep: list[Given] = Field(default=[], max_length=64)
    """Players re-hired at Current Value plus agent's fees."""
    carry: dict[Given, int] = Field(default={}, max_length=16)
    """Re-rolls or staff carried at standard cost: ``{"reroll": 2}``."""
    dice: dict[Given, dict[Given, Rolled]] = Field(default={}, max_length=8)
    """Rest and Relaxation rolls by purpose and player: ``{"niggling_recovery": {"Skweek":
    5}}``."""
    roll_missing: bool = False
    reason: str | None = Reason


@router.post(TEAM + "/redraft", status_code=201)
@needs("redraft")
def redraft(call: Calling, league: str, team: str, body: Redraft, response: Response) -> Written:
    """Re-draft the team for the next season (BB2025 off-season): its coach chooses whom
    to re-hire and what to carry, as ``ledger team redraft``."""
    call.write(
        lambda ledger, by: ledger.handle(
            cmd.Redraft(
                league,
                team,
                keep=body.keep,
                carry=body.carry,
                dice=body.dice,
                roll_missing=body.roll_missing,
            ),
            by=by,
            reason=body.reason,
        )
    )
    return Written(**receipt(call, response))


class Sign(Body):
    star: Given
    """The star's id: ``GET .../season/star-draft`` lists those the team may sign."""
    reason: str | None = Reason


@router.post(TEAM + "/star", status_code=201)
@needs("sign_star")
def sign_star(call: Calling, league: str, team: str, body: Sign, response: Response) -> Written:
    """Sign the team's star for the season, free, in its turn of the star draft
    (``ledger season sign``; seed 003, 'Signing Star Players')."""
    call.write(
        lambda ledger, by: ledger.handle(
            cmd.SignStar(league, team, body.star), by=by, reason=body.reason
        )
    )
    return Written(**receipt(call, response))


# --- the post-game sequence ------------------------------------------------------------------


class Close(Body):
    teams: list[Given] = Field(default=[], max_length=8)
    """The teams to close for; none named: every team of the match the account may close
    for that has not closed yet."""
    dice: dict[Given, Rolled] = Field(default={}, max_length=32)
    """Post-game rolls: ``{"expensive_mistakes": 3}`` goes to each team whose sequence
    needs it; ``{"reikland-reavers:expensive_mistakes": 3}`` is one team's own."""
    roll_missing: bool = False
    reason: str | None = Reason


class Closed(Written):
    teams: list[str]


@router.post("/api/leagues/{league}/matches/{match}/close", status_code=201, tags=["matches"])
@needs("close_post_game", team_in_body=True)
def close(call: Calling, league: str, match: str, body: Close, response: Response) -> Closed:
    """Close the post-game sequence of a played match (after its hires and advancements)
    for the teams named, or if any of them cannot close, for none."""

    def command(ledger: LeagueLedger, by: str) -> list[str]:
        chosen = body.teams or closable(ledger, call, match)
        for team in chosen:
            call.authorize_team("close_post_game", team)
        ledger.handle(
            cmd.CloseMatch(league, match, chosen, dice=body.dice, roll_missing=body.roll_missing),
            by=by,
            reason=body.reason,
        )
        return list(chosen)

    closed = call.write(command)
    return Closed(**receipt(call, response), teams=closed)


def closable(ledger: LeagueLedger, call: Call, match: str) -> list[str]:
    """The match's teams still open that the account acts for (a coach: their own; the
    commissioner: all). When none is open, all of them, so the command says why."""
    assert call.league is not None
    league = ledger.league_row(call.league)
    row = ledger.view().get(MatchRow, league.league_id, match)
    if row is None:
        raise UnknownMatch(f"no match '{match}' in league {call.league}")
    teams = [row.home, row.away, *row.others]
    mine = [t for t in teams if acts_for(call, t)]
    still_open = [t for t in mine if t not in row.closed]
    return still_open or mine or teams


def acts_for(call: Call, team: str) -> bool:
    if call.role in ("admin", "commissioner"):
        return True
    return team in call.principal.teams_in(call.league or "")
