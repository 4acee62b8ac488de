"""``ledger rules ...``: an edition's team lists, star players and skills, as its data has them.

These read the ruleset's own tables (ledger/rules/<edition>/data), never the league's
books, so they work before any league exists when the ruleset is named. Without a
ruleset they answer for the league's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from cli.main import Session, pass_session
from cli.output import gold, print_json, say, table
from ledger.errors import AmbiguousLeague, InvalidInput, NotFound
from ledger.reports.text import characteristic
from ledger.rules import RULESETS, find_ruleset
from ledger.rules.protocol import Ruleset
from ledger.rules.schema import SKILL_CATEGORIES, Position, StarPlayer, TeamList

RULESET_NAMES = frozenset(name for cls in RULESETS for name in (cls.id, *cls.aliases))
JSON = click.option("--json", "as_json", is_flag=True, help="Print JSON.")
RULESET = click.argument("ruleset_id", metavar="[RULESET]", required=False)


@click.group()
def rules() -> None:
    """An edition's team lists, star players and skills (RULESET: an id or alias from
    'ledger rulesets'; default: the league's)."""


def ruleset_of(session: Session, given: str | None) -> Ruleset:
    """The ruleset named, or the league's (with its options) when none is."""
    if given is not None:
        return find_ruleset(given)
    try:
        return league_ruleset(session)
    except (NotFound, AmbiguousLeague) as error:  # no ledger, no league, several
        known = ", ".join(cls.id for cls in RULESETS)
        raise InvalidInput(
            f"name a ruleset ({known}): there is no league to take it from ({error.message})"
        ) from None


def league_ruleset(session: Session) -> Ruleset:
    """The league's ruleset with its options (a missing ledger or league is its own error)."""
    league = session.ledger().league_row(session.league())
    return find_ruleset(league.ruleset, league.options)


def said(rules: Sequence[str]) -> str:
    """A team list's special rules in a cell: names listed with commas (``Bone-head,
    Stunty``), but whole sentences (4th edition's Big Guy teams) one after another."""
    if any(rule.endswith(".") for rule in rules):
        return " ".join(rule if rule.endswith(".") else f"{rule}." for rule in rules)
    return ", ".join(rules)


@rules.command("teams")
@RULESET
@JSON
@pass_session
def teams(session: Session, ruleset_id: str | None, as_json: bool) -> None:
    """The team lists of RULESET, with their re-roll price and special rules."""
    ruleset = ruleset_of(session, ruleset_id)
    lists = sorted(ruleset.catalogue.team_lists().values(), key=lambda t: t.id)
    if as_json:
        print_json({"ruleset": ruleset.id, "teams": [team_summary(t) for t in lists]})
        return
    say(f"{ruleset.name} ({ruleset.id}): {len(lists)} team lists")
    say(
        table(
            ["team list", "name", "re-roll", "apothecary", "positions", "special rules"],
            [
                [
                    t.id,
                    t.name,
                    gold(t.reroll_cost),
                    yes_no(t.apothecary),
                    len(t.positions),
                    said(t.special_rules),
                ]
                for t in lists
            ],
            right=(2, 4),
        )
    )
    say(f"\nA team list's positions: ledger rules team {ruleset.id} TEAM_LIST")


def team_summary(team: TeamList) -> dict[str, Any]:
    return {
        "id": team.id,
        "name": team.name,
        "reroll_cost": team.reroll_cost,
        "apothecary": team.apothecary,
        "special_rules": list(team.special_rules),
        "positions": len(team.positions),
    }


@rules.command("team")
@click.argument("names", metavar="[RULESET] TEAM_LIST", nargs=-1, required=True)
@JSON
@pass_session
def team(session: Session, names: tuple[str, ...], as_json: bool) -> None:
    """One team list: each position's id (for 'ledger team hire'), name, limit, price,
    profile, skills and skill access; the re-roll price, apothecary and special rules."""
    if len(names) > 2:
        raise click.UsageError(f"give [RULESET] TEAM_LIST, not {len(names)} names")
    if len(names) == 1 and names[0].strip().lower() in RULESET_NAMES:
        raise InvalidInput(
            f"'{names[0]}' is a ruleset: name a team list too (ledger rules team {names[0]}"
            f" TEAM_LIST; its lists: ledger rules teams {names[0]})"
        )
    ruleset = ruleset_of(session, names[0] if len(names) == 2 else None)
    found = ruleset.catalogue.team_list(names[-1])
    if as_json:
        print_json({"ruleset": ruleset.id, **found.model_dump(mode="json")})
    else:
        print_team(ruleset, found)


def print_team(ruleset: Ruleset, found: TeamList) -> None:
    say(f"{found.name} ({found.id}) - {ruleset.name} ({ruleset.id})")
    say(
        f"re-roll {gold(found.reroll_cost)}  apothecary {yes_no(found.apothecary)}"
        f"  players {found.min_players}-{found.max_players}"
    )
    if found.special_rules:
        say(f"special rules: {said(found.special_rules)}")
    targets = ruleset.characteristic_targets
    headers = ["position", "name", "qty", "price", *PROFILE, "skills", "primary", "secondary"]
    rows = [position_line(p, targets) for p in found.positions]
    say(table(headers, rows, right=(3, 4, 5, 6, 7, 8)))
    say(f"\nsource: {found.source}")


PROFILE = ["MA", "ST", "AG", "PA", "AV"]


def profile(p: Position | StarPlayer, targets: bool) -> list[object]:
    return [
        p.ma,
        p.st,
        characteristic(p.ag, targets),
        characteristic(p.pa, targets),
        characteristic(p.av, targets),
    ]


def position_line(p: Position, targets: bool) -> list[object]:
    return [
        p.id,
        p.name,
        f"{p.min}-{p.max}",
        gold(p.cost),
        *profile(p, targets),
        ", ".join(p.skills),
        "".join(p.primary),
        "".join(p.secondary),
    ]


@rules.command("stars")
@RULESET
@JSON
@pass_session
def stars(session: Session, ruleset_id: str | None, as_json: bool) -> None:
    """The star players of RULESET: price, profile, skills and who they play for."""
    ruleset = ruleset_of(session, ruleset_id)
    found = sorted(ruleset.catalogue.stars().values(), key=lambda s: s.id)
    if as_json:
        print_json({"ruleset": ruleset.id, "stars": found})
        return
    if not found:
        say(f"{ruleset.name} ({ruleset.id}) has no star players in this ledger.")
        return
    targets = ruleset.characteristic_targets
    say(f"{ruleset.name} ({ruleset.id}): {len(found)} star players")
    say(
        table(
            ["star", "name", "price", *PROFILE, "plays for", "skills"],
            [
                [
                    s.id,
                    s.name,
                    gold(s.cost),
                    *profile(s, targets),
                    plays_for(s),
                    ", ".join(s.skills),
                ]
                for s in found
            ],
            right=(2, 3, 4, 5, 6, 7),
        )
    )


def plays_for(star: StarPlayer) -> str:
    teams = ", ".join(star.plays_for)
    return f"{teams} (with {star.pair_with})" if star.pair_with else teams


@rules.command("skills")
@RULESET
@JSON
@pass_session
def skills(session: Session, ruleset_id: str | None, as_json: bool) -> None:
    """The skills (and traits) of RULESET by category, as a team list's access letters
    name them (G General, A Agility, S Strength, P Passing, M Mutation, D Devious, T Trait)."""
    ruleset = ruleset_of(session, ruleset_id)
    found = ruleset.catalogue.skills()
    if as_json:
        print_json({"ruleset": ruleset.id, "skills": found})
        return
    say(f"{ruleset.name} ({ruleset.id}): {len(found)} skills")
    say(table(["category", "skills"], category_lines(found)))


def category_lines(found: Sequence[Any]) -> list[list[object]]:
    """One line per category: ``A Agility``, then its skills (elite ones marked)."""
    lines: list[list[object]] = []
    for code in sorted({s.category for s in found}):
        names = [s.name + (" (elite)" if s.elite else "") for s in found if s.category == code]
        lines.append([f"{code} {SKILL_CATEGORIES.get(code, '')}".strip(), ", ".join(names)])
    return lines


def yes_no(flag: bool) -> str:
    return "yes" if flag else "no"


COMMANDS = [rules]
