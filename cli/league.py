"""``ledger league ...`` and ``ledger rulesets``."""

from __future__ import annotations

import json
from typing import Any

import click

from cli.main import Session, pass_session
from cli.output import print_json, say, table
from ledger.errors import InvalidOption
from ledger.rules import RULESETS, find_ruleset


def parse_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    """``--option bonus_points=added --option redraft_cap=false`` as typed values."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise InvalidOption(f"options are KEY=VALUE, not '{pair}'")
        try:
            options[key.strip()] = json.loads(raw)
        except json.JSONDecodeError:
            options[key.strip()] = raw
    return options


@click.group()
def league() -> None:
    """Create and inspect leagues."""


@league.command("create")
@click.argument("slug")
@click.option("--name", required=True, help="The league's full name.")
@click.option(
    "--ruleset",
    "ruleset_id",
    required=True,
    help="Ruleset id or alias: bb2020, lrb6-zal, gold4, dz3 (see 'ledger rulesets').",
)
@click.option(
    "--option",
    "-o",
    "options",
    multiple=True,
    metavar="KEY=VALUE",
    help="A ruleset option (repeatable).",
)
@click.option("--reason", help="Why (kept in the log).")
@pass_session
def create(
    session: Session,
    slug: str,
    name: str,
    ruleset_id: str,
    options: tuple[str, ...],
    reason: str | None,
) -> None:
    """Create league SLUG (lower-case letters, digits and dashes)."""
    row = session.ledger().create_league(
        slug, name, ruleset_id, by=session.user, options=parse_options(options), reason=reason
    )
    say(
        f"Created league {row.slug} ({row.name}) under {row.ruleset}"
        f"{' with ' + json.dumps(row.options) if row.options else ''}."
    )


@league.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_session
def list_leagues(session: Session, as_json: bool) -> None:
    """The leagues in this ledger."""
    rows = session.ledger().leagues()
    if as_json:
        print_json(rows)
        return
    say(
        table(
            ["league", "name", "ruleset", "events", "season"],
            [[r.slug, r.name, r.ruleset, r.version, r.current_season or ""] for r in rows],
            right=(3,),
        )
    )


@league.command("show")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_session
def show(session: Session, as_json: bool) -> None:
    """The league's settings: ruleset, options, points."""
    ledger = session.ledger()
    row = ledger.league_row(session.league())
    ruleset = find_ruleset(row.ruleset, row.options)
    scheme = ruleset.points_scheme(row.points)
    if as_json:
        print_json({"league": row, "points": scheme})
        return
    say(f"{row.name} ({row.slug}): {ruleset.name} [{ruleset.id}], {row.version} events")
    say(f"options: {json.dumps(row.options)}")
    say(
        f"points: win {scheme.win} / draw {scheme.draw} / loss {scheme.loss};"
        f" bonus {', '.join(scheme.bonus) or 'none'} ({scheme.bonus_mode});"
        f" tie-breakers: {', '.join(scheme.tiebreakers)}"
    )


@click.command("rulesets")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def rulesets(as_json: bool) -> None:
    """The rulesets a league can be created under, with their options."""
    found: list[dict[str, Any]] = []
    for cls in RULESETS:
        options = {
            name: {"default": field.default, "help": field.description or ""}
            for name, field in cls.Options.model_fields.items()
        }
        found.append(
            {
                "id": cls.id,
                "name": cls.name,
                "aliases": list(cls.aliases),
                "source": cls.source,
                "options": options,
                "team_lists": sorted(cls().team_lists()),
            }
        )
    if as_json:
        print_json(found)
        return
    for entry in found:
        say(f"{entry['id']}: {entry['name']} (aliases: {', '.join(entry['aliases'])})")
        say(f"  source: {entry['source']}")
        for name, option in entry["options"].items():
            say(f"  option {name} (default {json.dumps(option['default'])})")
        say(f"  team lists: {', '.join(entry['team_lists'])}")


COMMANDS = [league, rulesets]
