"""``ledger league ...`` and ``ledger rulesets``."""

from __future__ import annotations

import json
import textwrap
import typing
from typing import Any, get_args

import click
from pydantic import ValidationError
from pydantic.fields import FieldInfo

from cli.main import Session, pass_session
from cli.output import REASON, WIDE, print_json, say, table
from ledger.application.commands import SetAdvancementDice
from ledger.domain.values import BonusPoint, PointsScheme, Tiebreaker, validation_problems
from ledger.errors import InvalidOption
from ledger.rules import REGISTRY, RULESETS, find_ruleset
from ledger.words import plural


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


def listed(raw: str) -> tuple[str, ...]:
    names = tuple(part.strip() for part in raw.split(",") if part.strip())
    return () if names == ("none",) else names


def points_scheme(
    default: PointsScheme,
    *,
    points: str | None,
    bonus: str | None,
    bonus_mode: str | None,
    tiebreakers: str | None,
) -> PointsScheme | None:
    """The league's own points scheme when any part is given, else None (the ruleset's)."""
    if points is None and bonus is None and bonus_mode is None and tiebreakers is None:
        return None
    changes: dict[str, Any] = {}
    if points is not None:
        parts = points.split("/")
        if len(parts) != 3 or not all(p.strip().lstrip("-").isdigit() for p in parts):
            raise InvalidOption(f"--points is win/draw/loss such as 3/1/0, not '{points}'")
        changes.update(zip(("win", "draw", "loss"), (int(p) for p in parts), strict=True))
    if bonus is not None:
        changes["bonus"] = listed(bonus)
    if bonus_mode is not None:
        changes["bonus_mode"] = bonus_mode
    if tiebreakers is not None:
        changes["tiebreakers"] = listed(tiebreakers)
    try:
        return PointsScheme.model_validate(default.model_dump() | changes)
    except ValidationError as error:
        problem = error.errors()[0]
        field = str(problem["loc"][0])
        if field not in ("tiebreakers", "bonus"):  # a number out of bounds in --points
            raise InvalidOption(f"--points: {validation_problems(error)}") from None
        allowed = get_args(Tiebreaker if field == "tiebreakers" else BonusPoint)
        raise InvalidOption(
            f"--{field}: '{problem['input']}' is none of {', '.join(allowed)}"
        ) from None


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
    help=f"Ruleset id or alias: {', '.join(REGISTRY)} (see 'ledger rulesets').",
)
@click.option(
    "--option",
    "-o",
    "options",
    multiple=True,
    metavar="KEY=VALUE",
    help="A ruleset option (repeatable).",
)
@click.option(
    "--points",
    metavar="W/D/L",
    help="League points for a win, draw and loss, e.g. 3/1/0 (default: the ruleset's).",
)
@click.option(
    "--bonus",
    metavar="LIST",
    help=f"Bonus points, comma-separated: {', '.join(get_args(BonusPoint))}, or none.",
)
@click.option(
    "--bonus-mode",
    type=click.Choice(["added", "tiebreak"]),
    help="Bonus points added to the points, or used as the first tie-breaker.",
)
@click.option(
    "--tiebreakers",
    metavar="LIST",
    help=f"Tie-breakers in order, comma-separated: {', '.join(get_args(Tiebreaker))}.",
)
@click.option("--reason", help="Why (kept in the log).")
@pass_session
def create(
    session: Session,
    slug: str,
    name: str,
    ruleset_id: str,
    options: tuple[str, ...],
    points: str | None,
    bonus: str | None,
    bonus_mode: str | None,
    tiebreakers: str | None,
    reason: str | None,
) -> None:
    """Create league SLUG (lower-case letters, digits and dashes)."""
    chosen = parse_options(options)
    scheme = points_scheme(
        find_ruleset(ruleset_id, chosen).points_scheme(None),
        points=points,
        bonus=bonus,
        bonus_mode=bonus_mode,
        tiebreakers=tiebreakers,
    )
    row = session.ledger().create_league(
        slug, name, ruleset_id, by=session.user, options=chosen, points=scheme, reason=reason
    )
    session.created_league = row.slug
    say(
        f"Created league {row.slug} ({row.name}) under {row.ruleset}"
        f"{' with ' + json.dumps(row.options) if row.options else ''}."
    )


@league.command("list")
@WIDE
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
    say(f"{row.name} ({row.slug}): {ruleset.name} [{ruleset.id}], {plural(row.version, 'event')}")
    say(f"options: {json.dumps(row.options)}")
    say(
        f"points: win {scheme.win} / draw {scheme.draw} / loss {scheme.loss};"
        f" bonus {', '.join(scheme.bonus) or 'none'} ({scheme.bonus_mode});"
        f" tie-breakers: {', '.join(scheme.tiebreakers)}"
    )
    rolled = "by the ledger only" if row.advancements_by_ledger else "by the ledger or at the table"
    say(f"advancements rolled: {rolled}")


@league.command("advancement-dice")
@click.argument("who", type=click.Choice(["ledger", "table"]))
@REASON
@pass_session
def advancement_dice(session: Session, who: str, reason: str | None) -> None:
    """Who rolls the league's advancements: the ledger only (dice typed in with --die, or
    on the advancement page, are refused; the ledger rolls without --roll), or the table
    too (the default: dice rolled at the table are taken, recorded as the table's)."""
    by_ledger = who == "ledger"
    session.ledger().handle(
        SetAdvancementDice(session.league(), by_ledger), by=session.user, reason=reason
    )
    said = "rolled by the ledger only" if by_ledger else "rolled by the ledger or at the table"
    say(f"The league's advancements are {said}.")


def allowed_values(annotation: Any) -> list[Any]:
    """What an option accepts, from its type: a Literal's values, true/false, or each value
    a tuple of Literals may hold."""
    if annotation is bool:
        return [True, False]
    if typing.get_origin(annotation) is typing.Literal:
        return list(typing.get_args(annotation))
    if typing.get_origin(annotation) is tuple:
        return allowed_values(typing.get_args(annotation)[0])
    return []


def describe_option(field: FieldInfo) -> dict[str, Any]:
    return {
        "default": field.default,
        "values": allowed_values(field.annotation),
        "several": typing.get_origin(field.annotation) is tuple,
        "help": " ".join((field.description or "").split()),
    }


def ruleset_entries() -> list[dict[str, Any]]:
    return [
        {
            "id": cls.id,
            "name": cls.name,
            "aliases": list(cls.aliases),
            "source": cls.source,
            "figures": list(cls.value_labels.values()),
            "options": {
                name: describe_option(field) for name, field in cls.Options.model_fields.items()
            },
            "team_lists": sorted(cls().catalogue.team_lists()),
        }
        for cls in RULESETS
    ]


def shown(value: Any) -> str:
    """An option value as typed after ``-o KEY=``: true, 2D6, income."""
    if isinstance(value, list | tuple):
        return ", ".join(shown(v) for v in value) or "none"
    return json.dumps(value).strip('"')


def values_of(option: dict[str, Any]) -> str:
    values = ", ".join(f"`{shown(v)}`" for v in option["values"])
    return f"any of {values}" if option["several"] else values


def markdown_options(entry: dict[str, Any]) -> str:
    """The option table of one ruleset, as docs/rulesets.md carries it."""
    lines = [
        f"### `{entry['id']}`",
        "",
        "| option | values | default | meaning |",
        "|---|---|---|---|",
    ]
    for name, option in entry["options"].items():
        default = f"`{shown(option['default'])}`"
        lines.append(f"| `{name}` | {values_of(option)} | {default} | {option['help']} |")
    return "\n".join(lines)


@click.command("rulesets")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--markdown", is_flag=True, help="Print each ruleset's options as a Markdown table.")
def rulesets(as_json: bool, markdown: bool) -> None:
    """The rulesets a league can be created under, with their options."""
    found = ruleset_entries()
    if as_json:
        print_json(found)
        return
    if markdown:
        say("\n\n".join(markdown_options(entry) for entry in found))
        return
    for entry in found:
        say(f"{entry['id']}: {entry['name']} (aliases: {', '.join(entry['aliases'])})")
        say(f"  source: {entry['source']}")
        say(f"  team figures: {', '.join(entry['figures'])}")
        for name, option in entry["options"].items():
            values = ", ".join(shown(v) for v in option["values"])
            say(
                f"  option {name} = {shown(option['default'])}"
                + (f"  ({values})" if values else "")
            )
            say(
                textwrap.fill(
                    option["help"], width=92, initial_indent=" " * 6, subsequent_indent=" " * 6
                )
            )
        say(f"  team lists: {', '.join(entry['team_lists'])}")


COMMANDS = [league, rulesets]
