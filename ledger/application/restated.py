"""A recorded match restated as the report file that records it (docs/match-report.md):
what a commissioner edits to correct a report whole (``ledger correct N --report``, the
report's correction page), and what ``ledger match show --report`` prints.

Sent back unchanged, the report records the match exactly as it stands: ``CorrectMatch``
then finds nothing to amend (tests/integration/test_restated.py folds every recorded
match of each edition through it). Players and hirelings are named by the ids the event
holds; ``by_name`` names each player whose name reads back as him alone, as a commissioner
writes a report (a die restated as it was recorded stays the original's record of it, who rolled
it and for whom: ``restated_dice_kept``); a casualty's outcome is given beside
the dice it is read from (an outcome also given must agree with them), its effects only
where no die says them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from ledger.domain import events as ev
from ledger.domain.state import PlayerRow
from ledger.domain.values import Casualty, DiceRoll, Performance, TeamSheet

LINE_FIGURES = (
    "touchdowns",
    "completions",
    "interceptions",
    "deflections",
    "superb_throws",
    "throws",
    "landings",
    "mvps",
)
"""A player's figures, by the report's names (``PlayerLine``); each given when not 0."""


def report_of_match(match: ev.MatchRecorded) -> dict[str, Any]:
    """The report (as its JSON) that records ``match`` as it stands."""
    report: dict[str, Any] = {"match": match.match, "kind": match.kind}
    report |= present(match, ("played_on", "weather", "referee", "winner"))
    report["home"], report["away"] = side_of(match.home), side_of(match.away)
    if match.others:
        report["others"] = [side_of(sheet) for sheet in match.others]
    if match.casualties:
        report["casualties"] = [casualty_of(c) for c in match.casualties]
    if match.concession is not None:
        report["concession"] = match.concession.model_dump(mode="json")
    if match.shootout is not None:
        report["shootout"] = match.shootout.model_dump(mode="json")
    if match.dice:
        report["dice"] = dice_of(match.dice, owner=None)
    return report


def present(value: Any, names: Iterable[str]) -> dict[str, Any]:
    return {name: getattr(value, name) for name in names if getattr(value, name) is not None}


def side_of(sheet: TeamSheet) -> dict[str, Any]:
    side: dict[str, Any] = {"team": sheet.team, "touchdowns": sheet.touchdowns}
    if sheet.stalling:
        side["stalled"] = True
    if sheet.players:
        side["players"] = [line_of(p) for p in sheet.players]
    if sheet.hirelings:
        side["hirelings"] = [
            h.model_dump(mode="json", exclude_defaults=True) for h in sheet.hirelings
        ]
    if sheet.dice:
        side["dice"] = dice_of(sheet.dice, owner=sheet.team)
    return side


def line_of(performance: Performance) -> dict[str, Any]:
    line: dict[str, Any] = {"player": performance.player}
    line |= {f: getattr(performance, f) for f in LINE_FIGURES if getattr(performance, f)}
    line |= {f: True for f in ("sent_off", "stalling") if getattr(performance, f)}
    return line


def casualty_of(casualty: Casualty) -> dict[str, Any]:
    line: dict[str, Any] = {"victim": casualty.victim, "cause": casualty.cause}
    if casualty.inflicted_by is not None:
        line["by"] = casualty.inflicted_by
    if casualty.dice:
        line["dice"] = {d.purpose: values_of(d) for d in casualty.dice}
    line["outcome"] = casualty.outcome
    if casualty.effects and not casualty.dice:
        line["effects"] = list(casualty.effects)
    if casualty.recovered:
        line["recovered"] = True
    return line


def dice_of(rolls: Iterable[DiceRoll], owner: str | None) -> dict[str, Any]:
    """A side's dice (``owner``: its team) or the match's, by purpose: a purpose rolled
    once, for the owner, as its values; else its rolls under their subjects."""
    by_purpose: dict[str, list[DiceRoll]] = {}
    for roll in rolls:
        by_purpose.setdefault(roll.purpose, []).append(roll)
    found: dict[str, Any] = {}
    for purpose, made in by_purpose.items():
        if len(made) == 1 and made[0].subject == owner:
            found[purpose] = values_of(made[0])
        else:
            found[purpose] = {r.subject or owner: values_of(r) for r in made}
    return found


def values_of(roll: DiceRoll) -> int | list[int]:
    return roll.values[0] if len(roll.values) == 1 else list(roll.values)


def restated_dice_kept(draft: ev.MatchRecorded, original: ev.MatchRecorded) -> ev.MatchRecorded:
    """A die a corrected report restates as the original recorded it (its purpose, dice
    and values, for the same subject or the same casualty) stays the original's record
    of it: who rolled it (the ledger's roll stays the ledger's, though a report can only
    enter it as a value), whom it was entered for (a casualty's victim, named by his name
    then, by his id in the corrected report), and its place among the dice (a file's
    dice in another order restate the same rolls)."""
    known = {(r.purpose, r.subject, r.dice, r.values): r for r in side_dice(original)}

    def kept(rolls: tuple[DiceRoll, ...]) -> tuple[DiceRoll, ...]:
        return in_order(known, lambda r: (r.purpose, r.subject, r.dice, r.values), rolls)

    def sheet(side: TeamSheet) -> TeamSheet:
        return side.model_copy(update={"dice": kept(side.dice)})

    def casualty(line: Casualty) -> Casualty:
        before = next((c for c in original.casualties if c.victim == line.victim), None)
        if before is None:
            return line
        same = {(r.purpose, r.dice, r.values): r for r in before.dice}
        dice = in_order(same, lambda r: (r.purpose, r.dice, r.values), line.dice)
        return line.model_copy(update={"dice": dice})

    return draft.model_copy(
        update={
            "home": sheet(draft.home),
            "away": sheet(draft.away),
            "others": tuple(sheet(o) for o in draft.others),
            "dice": kept(draft.dice),
            "casualties": tuple(casualty(c) for c in draft.casualties),
        }
    )


def in_order(
    known: dict[Any, DiceRoll], key: Callable[[DiceRoll], Any], rolls: tuple[DiceRoll, ...]
) -> tuple[DiceRoll, ...]:
    """``rolls``, each the original's record of it where ``known`` has one, the originals
    in their recorded order first (then the new ones, as given)."""
    place = {id(r): n for n, r in enumerate(known.values())}
    restated = [known.get(key(r), r) for r in rolls]
    return tuple(sorted(restated, key=lambda r: place.get(id(r), len(place))))


def side_dice(match: ev.MatchRecorded) -> list[DiceRoll]:
    return [*(r for s in match.sheets() for r in s.dice), *match.dice]


def plain_names(players: Iterable[PlayerRow], ids: Iterable[str]) -> dict[str, str]:
    """Each of ``players``' names by his id, where the name reads back as him alone: no
    other of ``players`` (the match's teams, past and present) is called so, whatever the
    case, and it is neither a shirt number (``#4``) nor one of the league's ``ids``, which
    a report's name is looked up as first (``Context.player``)."""
    players = list(players)
    ids = set(ids)
    counted = Counter(p.name.casefold() for p in players)
    return {
        p.player_id: p.name
        for p in players
        if counted[p.name.casefold()] == 1 and not p.name.startswith("#") and p.name not in ids
    }


def by_name(report: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """The report (as its JSON) with its lines and casualties naming players by the
    ``names`` (``plain_names``) instead of their ids. Dice stay keyed as they were entered:
    a die's subject is read as an id."""

    def one(ref: str) -> str:
        return names.get(ref, ref)

    def side(sheet: dict[str, Any]) -> dict[str, Any]:
        if "players" not in sheet:
            return sheet
        return {**sheet, "players": [{**p, "player": one(p["player"])} for p in sheet["players"]]}

    def casualty(line: dict[str, Any]) -> dict[str, Any]:
        return {k: one(v) if k in ("victim", "by") else v for k, v in line.items()}

    named = {**report, "home": side(report["home"]), "away": side(report["away"])}
    if "others" in report:
        named["others"] = [side(o) for o in report["others"]]
    if "casualties" in report:
        named["casualties"] = [casualty(c) for c in report["casualties"]]
    return named


def renamed(report: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """The report (as its JSON) with the players ``names`` maps named anew wherever it
    names them: a hireling's id, the lines and casualties that name him, the dice entered
    for him. A form names its hirelings by their rows (``home-h1``) where a file gave them
    ids of its own: renamed to the form's and back, the report is the same."""

    def one(ref: Any) -> Any:
        return names.get(ref, ref) if isinstance(ref, str) else ref

    def dice(entries: dict[str, Any]) -> dict[str, Any]:
        return {
            purpose: {one(k): v for k, v in entry.items()} if isinstance(entry, dict) else entry
            for purpose, entry in entries.items()
        }

    def side(sheet: dict[str, Any]) -> dict[str, Any]:
        return {
            **sheet,
            "players": [{**p, "player": one(p["player"])} for p in sheet.get("players", [])],
            "hirelings": [{**h, "id": one(h["id"])} for h in sheet.get("hirelings", [])],
            "dice": dice(sheet.get("dice", {})),
        }

    return {
        **report,
        "home": side(report["home"]),
        "away": side(report["away"]),
        "others": [side(o) for o in report.get("others", [])],
        "casualties": [
            {**c, "victim": one(c["victim"]), **({"by": one(c["by"])} if c.get("by") else {})}
            for c in report.get("casualties", [])
        ],
        "dice": dice(report.get("dice", {})),
    }
