"""Who may do what (DESIGN.md decision 8): checked before any command runs.

A coach does for their own team(s) what the books let a team's owner do; a league's
commissioner runs the league and may do anything a coach may for any of its teams; an
admin creates leagues and accounts and may do anything a commissioner may. The answer
is the role the account acts in, which its events record beside the account, or a
``Forbidden`` error that says why.

Worked example: ``authorize(coach_of_reavers, league, "hire", team="reavers")`` is
``"coach"``; with ``team="rats"`` it raises Forbidden ("... coaches reavers, not rats").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from ledger.domain.events import Role
from ledger.errors import Forbidden, Unauthenticated

Need = Literal["reader", "team", "commissioner", "admin"]


class Action(NamedTuple):
    need: Need
    phrase: str
    """What it does, after "may": ``hire for the team``."""


ACTIONS: Mapping[str, Action] = {
    # reading a league (members, or anyone where the league is public)
    "read": Action("reader", "read the league"),
    # what a team's owner does
    "hire": Action("team", "hire for the team"),
    "buy": Action("team", "buy for the team"),
    "release": Action("team", "release the team's players"),
    "fire": Action("team", "fire the team's players"),
    "retire": Action("team", "retire the team's players"),
    "advance": Action("team", "spend the team's SPP"),
    "close_post_game": Action("team", "close the team's post-game sequence"),
    "inducements": Action("team", "buy the team's inducements"),
    "appearance_fees": Action("team", "pay the team's appearance fees"),
    "submit_report": Action("team", "submit the team's match reports"),
    "answer_report": Action("team", "answer a match report against the team"),
    "bounty": Action("team", "post a bounty"),
    "card": Action("team", "play the team's cards"),
    "sign_star": Action("team", "sign a star player"),
    # running the league
    "register_team": Action("commissioner", "register a team"),
    "start_season": Action("commissioner", "start a season"),
    "schedule": Action("commissioner", "schedule the season's games"),
    "draw_playoffs": Action("commissioner", "draw the play-offs"),
    "close_season": Action("commissioner", "close the season"),
    "record_match": Action("commissioner", "record a match directly"),
    "decide_report": Action("commissioner", "approve or reject a match report"),
    "correct": Action("commissioner", "correct the league's events"),
    "adjust_treasury": Action("commissioner", "adjust a treasury"),
    # the coach chooses the re-hires (issue 12, point 3)
    "redraft": Action("team", "choose the team's re-hires"),
    "star_draft": Action("commissioner", "run the star draft"),
    "grant": Action("commissioner", "grant roles in the league"),
    "visibility": Action("commissioner", "change who may read the league"),
    "advancement_dice": Action("commissioner", "decide who rolls the league's advancements"),
    # the site
    "create_league": Action("admin", "create a league"),
    "manage_accounts": Action("admin", "manage accounts"),
}
"""Every action a request can ask for: who may take it, and how a refusal names it
("only the commissioner of Old World Demo League may draw the play-offs")."""


Via = Literal["cli", "api", "web"]


@dataclass(frozen=True)
class Actor:
    """Who the events of a command are recorded as caused by: the account and the role it
    acted in (the service), or the name given on the local command line."""

    name: str
    account: str | None = None
    role: Role | None = None
    via: Via | None = None
    request_id: str | None = None

    def envelope(self) -> dict[str, str]:
        """The envelope fields of the events it causes (those it has)."""
        fields = {
            "account": self.account,
            "acting_as": self.role,
            "via": self.via,
            "request_id": self.request_id,
        }
        return {k: v for k, v in fields.items() if v is not None}


@dataclass(frozen=True)
class Membership:
    role: Literal["commissioner", "coach"]
    teams: tuple[str, ...] = ()


@dataclass(frozen=True)
class Principal:
    """An authenticated account and what it holds (read from the read models)."""

    account: str
    name: str
    admin: bool = False
    leagues: Mapping[str, Membership] = field(default_factory=dict)
    """Its role in each league, by league slug."""

    def teams_in(self, league: str) -> tuple[str, ...]:
        member = self.leagues.get(league)
        return member.teams if member else ()


def authorize(
    who: Principal | None,
    league: str | None,
    action: str,
    *,
    team: str | None = None,
    public: bool = False,
    team_said: Callable[[str], str] = str,
    league_said: str | None = None,
) -> Role | None:
    """The role ``who`` acts in for ``action`` (None for an anonymous reader), or raise
    Unauthenticated (no account where one is needed) / Forbidden (saying why, each team
    as ``team_said`` names it: the service reads its name only then; the league by
    ``league_said``, its name, to a member only: to others it is the address they asked)."""
    need = ACTIONS[action].need
    if who is None:
        if need == "reader" and public:
            return None
        raise Unauthenticated("sign in first: this needs an account")
    if who.admin:
        return "admin"
    member = who.leagues.get(league) if league else None
    if need == "admin":
        raise Forbidden(f"only an admin may {words(action)}")
    if member is None:
        if need == "reader" and public:
            return None
        raise Forbidden(f"{who.account} has no role in league {league}")
    if member.role == "commissioner":
        return "commissioner"
    if need == "reader":
        return "coach"
    if need == "commissioner":
        raise Forbidden(f"only the commissioner of {league_said or league} may {words(action)}")
    if team is None or team not in member.teams:
        coached = ", ".join(map(team_said, member.teams)) or "no team"
        asked = team_said(team) if team else "this team"
        raise Forbidden(f"{who.account} coaches {coached}, not {asked}")
    return "coach"


def words(action: str) -> str:
    return ACTIONS[action].phrase
