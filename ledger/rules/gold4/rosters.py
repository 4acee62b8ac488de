"""Building a gold4 team: team lists, allies, secret weapons and prices (seed 002).

Sections of seed 002: "ADDITIONS TO THE EXISTING TEAM LISTS" and the Big Guy team lists (the
3rd edition lists of classic3 plus five players and three Big Guy teams), "MIXED RACE TEAMS"
and the "ALLIED TEAMS TABLE" (one ally from each allowed race), "SECRET WEAPONS" (bought with
a player, cost added to his cost, one armed player per roster, four for Goblins), the Q&A on
Goblin and Halfling teams paying double for other players.

Worked example: a Goblin team takes an Ogre ally (120,000 on the Ogre list). Ogres are on the
Goblin row of the Allied Teams Table, Goblin teams pay double for non-goblins, so the Ogre
costs 240,000 - but his value, and so the team rating, counts his list price of 120,000.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

from ledger.domain.events import PlayerHired
from ledger.domain.state import PlayerRow, TeamRow
from ledger.errors import UnknownPosition
from ledger.rules.gold4.league_tables import GoldRules, gold_rules
from ledger.rules.gold4.tables import SecretWeapon, load_gold4_tables
from ledger.rules.schema import Position, TeamList, load_team_lists
from ledger.words import article, plural

RULES = Path(__file__).resolve().parent.parent
CLASSIC3_TEAMS = RULES / "classic3" / "data" / "teams"
BIG_GUY_TEAMS = RULES / "gold4" / "data" / "teams"

ON_ROSTER = ("active", "retired")
ARMED = "secret_weapon"


@cache
def team_lists() -> dict[str, TeamList]:
    """classic3's lists with seed 002's additions, plus the Big Guy team lists."""
    additions = load_gold4_tables().additions.additions
    merged = {
        team_id: extended(team, additions.get(team_id, ()))
        for team_id, team in load_team_lists(CLASSIC3_TEAMS).items()
    }
    return {**merged, **load_team_lists(BIG_GUY_TEAMS)}


def extended(team: TeamList, added: tuple[Position, ...]) -> TeamList:
    if not added:
        return team
    # model_validate (not model_copy) so the duplicate-position check runs on the result
    data = team.model_dump()
    data["positions"] = [*data["positions"], *(p.model_dump() for p in added)]
    data["notes"] = f"{team.notes} Seed 002 adds: {', '.join(p.name for p in added)}.".strip()
    return TeamList.model_validate(data)


# --- who is who ---------------------------------------------------------------------------


def position_of(player: PlayerRow) -> Position | None:
    """A player's position on his team list (None for a star or a list gold4 lacks)."""
    return position_in(player.roster, player.position)


@cache
def position_in(roster: str, position_id: str) -> Position | None:
    """A position of a list, looked up once (the lists never change): asked for every
    player who earns SPP in every match, and of every advancement."""
    team = team_lists().get(roster)
    return team.position(position_id) if team else None


def has_keyword(player: PlayerRow, keyword: str) -> bool:
    position = position_in(player.roster, player.position)
    return position is not None and keyword in position.keywords


def is_ally(event: PlayerHired, team: TeamRow) -> bool:
    return event.from_list is not None and event.from_list != team.roster


def armed(player: PlayerRow) -> bool:
    """Carries a secret weapon: bought with him, or part of his position (Fanatic...)."""
    return bool(player.extras.get("secret_weapons")) or has_keyword(player, ARMED)


def weapon(weapon_ref: str) -> SecretWeapon | None:
    weapons = load_gold4_tables().tables.secret_weapons.weapons
    wanted = weapon_ref.casefold()
    return next(
        (w for w in weapons if wanted in (w.id, w.name.casefold(), w.called.casefold())), None
    )


# --- prices -------------------------------------------------------------------------------


def list_price(event: PlayerHired, team: TeamRow) -> int:
    roster = event.from_list or team.roster
    team_list = team_lists().get(roster)
    position = team_list.position(event.position) if team_list else None
    if position is None:
        raise UnknownPosition(f"the {roster} list has no position '{event.position}'")
    return position.cost


def hire_price(event: PlayerHired, team: TeamRow) -> int:
    """List price (doubled for an outsider on a Goblin or Halfling team) plus weapons."""
    double = gold_rules().double_cost_teams
    outsider = is_ally(event, team) and double.outsider(team.roster, event.position)
    factor = double.factor if outsider else 1
    return list_price(event, team) * factor + weapons_cost(event.equipment)


def weapons_cost(equipment: Sequence[str]) -> int:
    """'The cost of a weapon is added to the cost of the player using it.' Unknown items
    (from another edition's log) cost nothing here: the replay lists them as divergences."""
    return sum(w.cost for ref in equipment if (w := weapon(ref)) is not None)


# --- who may be hired ---------------------------------------------------------------------


def ally_problems(
    team: TeamRow, players: Sequence[PlayerRow], event: PlayerHired, free_reroll: bool
) -> list[str]:
    if not is_ally(event, team):
        return []
    rules, allied = gold_rules(), load_gold4_tables().tables.allied_teams
    allowed = allies_of(rules, team.roster)
    ally = event.from_list or ""
    if ally not in allowed:
        names = ", ".join(sorted(allowed)) or "none"
        return [
            f"{article(team.roster)} team may not take {ally} allies (Allied Teams Table: {names})"
        ]
    taken = [p for p in players if p.status in ON_ROSTER and p.roster == ally]
    if len(taken) >= allied.max_allies_per_allowed_race:
        return [
            f"{team.name} already have {article(ally)} ally ({taken[0].name}): one ally from each"
            " allowed race (MIXED RACE TEAMS)"
        ]
    if free_reroll and team.drafting:
        return [
            f"{team.name} took the free starting re-roll, which mixed race teams do not get"
            " (BUYING RE-ROLLS & FAN FACTORS): release it before drafting allies"
        ]
    return []


def allies_of(rules: GoldRules, roster: str) -> set[str]:
    """The team lists a team may draw allies from, by list id."""
    rows = load_gold4_tables().tables.allied_teams.rows
    row = next((r for r in rows if rules.list_id(r.team) == roster), None)
    row = row or next(r for r in rows if r.team.casefold() == "any other")
    return {rules.list_id(name) for name in row.may_ally_with}


def weapon_problems(
    team: TeamRow, players: Sequence[PlayerRow], event: PlayerHired, allowed: bool
) -> list[str]:
    team_list = team_lists().get(event.from_list or team.roster)
    position = team_list.position(event.position) if team_list else None
    armed_already = position is not None and comes_armed(position)
    if not allowed:
        # without the SECRET WEAPONS rules only the list's own Fanatic / Death Roller exist,
        # limited by their 0-1 on the list
        return ["this league does not use the secret weapons rules"] if event.equipment else []
    if not event.equipment and not armed_already:
        return []
    problems = [p for ref in event.equipment for p in weapon_use_problems(team, ref)]
    what = position.name if position else event.position
    if armed_already and event.equipment:
        problems.append(f"{article(what)} is already armed")
    if armed_already and is_ally(event, team):
        # his Ball & Chain / Death Roller is not on the SECRET WEAPONS TABLE, and 'Allied
        # players may only use weapons allowed in the team they are allied to'
        problems.append(f"an allied {what} would bring a weapon {team.roster} teams may not use")
    return problems + weapon_limit_problems(team, players)


def comes_armed(position: Position) -> bool:
    """A Fanatic or a Death Roller: his weapon is on the list, not bought (SECRET WEAPONS)."""
    return ARMED in position.keywords


def weapon_users(found: SecretWeapon) -> set[str]:
    """The team lists that may use a secret weapon (SECRET WEAPONS TABLE), by list id."""
    return {gold_rules().list_id(name) for name in found.teams}


def weapon_use_problems(team: TeamRow, ref: str) -> list[str]:
    found = weapon(ref)
    if found is None:
        known = ", ".join(w.id for w in load_gold4_tables().tables.secret_weapons.weapons)
        return [f"'{ref}' is not a secret weapon (weapons: {known})"]
    # 'Allied players may only use weapons allowed in the team they are allied to'
    if team.roster not in weapon_users(found):
        return [f"{team.roster} teams may not use the {found.called} ({found.teams_printed})"]
    return []


def weapon_limit_problems(team: TeamRow, players: Sequence[PlayerRow]) -> list[str]:
    limit = load_gold4_tables().tables.secret_weapons.limit_for(team.roster)
    holders = [p for p in players if p.status in ON_ROSTER and armed(p)]
    if len(holders) + 1 > limit:
        names = ", ".join(p.name for p in holders)
        return [
            f"{team.name} already have {plural(len(holders), 'player')} with secret weapons"
            f" ({names});"
            f" at most {limit} on the roster (SECRET WEAPONS)"
        ]
    return []
