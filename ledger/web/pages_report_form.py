"""A report form's fields read into the documented report format (docs/match-report.md)
and back: the rows it shows (``Rows``), the figures a player line asks (``line_stats``:
those the edition's SPP table pays for), and each part of the report, every field that
does not hold a mistake beside it (``FormReport``), the rest read on. The rules are the
command's: nothing here decides whether a report may be recorded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, ClassVar

from ledger.domain.values import MAX_COUNT
from ledger.rules.protocol import DiceNeed, Ruleset
from ledger.web import pages_reads as reads
from ledger.web.pages_forms import FieldInvalid, ascii_int, dice_values, number
from ledger.web.pages_reads import Game
from ledger.web.pages_report_mistakes import FormReport


@dataclass(frozen=True)
class Rows:
    """How many lines of each kind the form shows (per side for players and hirelings):
    a few at first, more each time *More rows* is pressed (a bloody game has more than four
    casualties), at most what a report holds. The form carries them in hidden fields."""

    players: int = 8
    hirelings: int = 2
    casualties: int = 4

    MORE: ClassVar[dict[str, int]] = {"players": 4, "hirelings": 1, "casualties": 4}
    MOST: ClassVar[int] = MAX_COUNT
    """A report's bound on a side's lines (and, under it, on casualties)."""

    @classmethod
    def of(cls, values: Mapping[str, str]) -> Rows:
        """The rows the form was shown with (its hidden fields; never fewer than at first)."""
        shown = {}
        for kind, first in asdict(cls()).items():
            said = ascii_int(values.get(f"rows-{kind}", "").strip(), digits=6)
            shown[kind] = min(max(said or first, first), cls.MOST)
        return cls(**shown)

    @classmethod
    def fitting(cls, report: Mapping[str, Any]) -> Rows:
        """Enough rows for every line of ``report`` (a rejected one, shown again)."""
        sides = [report.get(key, {}) for key in ("home", "away")] + list(report.get("others", []))
        most = {
            "players": max(len(side.get("players", [])) for side in sides),
            "hirelings": max(len(side.get("hirelings", [])) for side in sides),
            "casualties": len(report.get("casualties", [])),
        }
        first = asdict(cls())
        return cls(**{kind: min(max(n, first[kind]), cls.MOST) for kind, n in most.items()})

    def more(self) -> Rows:
        grown = {k: min(n + self.MORE[k], self.MOST) for k, n in asdict(self).items()}
        return Rows(**grown)

    def fields(self) -> dict[str, str]:
        return {f"rows-{kind}": str(n) for kind, n in asdict(self).items()}


@dataclass(frozen=True)
class LineStat:
    """A figure of a player line: its field on the form and in the report file (``td``),
    the report's stored name for it (``touchdowns``), its column's heading and in words."""

    key: str
    stored: str
    heading: str
    said: str


COUNTED = (
    LineStat("td", "touchdowns", "TD", "touchdowns"),
    LineStat("comp", "completions", "Cmp", "completions"),
    LineStat("int", "interceptions", "Int", "interceptions"),
)
MVP = LineStat("mvp", "mvps", "MVP", "MVP awards")
PAID_ONLY_BY_SOME = {
    "superb_throw": LineStat("superb_throws", "superb_throws", "STh", "superb throws"),
    "throw": LineStat("throws", "throws", "Thr", "team-mate throws"),
    "landing": LineStat("landings", "landings", "Land", "landings"),
    "deflection": LineStat("deflections", "deflections", "Def", "deflections"),
}
"""Figures an edition's SPP table may pay for (its name there: the figure): BB2025 pays
superb throws and landings, BB2020 superb throws and deflections, ZAL team-mate throws."""
EVERY_STAT = (*COUNTED, *PAID_ONLY_BY_SOME.values(), MVP)


def line_stats(ruleset: Ruleset) -> tuple[LineStat, ...]:
    """The figures the form asks of a player line: those every edition pays SPP for, and
    those this edition's table also pays for (a coach could not record them otherwise)."""
    paid = ruleset.spp_table()
    extra = (stat for name, stat in PAID_ONLY_BY_SOME.items() if paid.get(name))
    return (*COUNTED, *extra, MVP)


def form_values(report: Mapping[str, Any], game: Game) -> dict[str, str]:
    """The form's fields as ``report_of`` reads them, filled from a report: a rejected
    report to correct, sent again without entering it anew."""
    values = {"match": game.match, **given(report, ("played_on", "weather", "referee"))}
    values |= Rows.fitting(report).fields()
    if report.get("winner"):
        values["winner"] = str(report["winner"])
    others = report.get("others", [])
    for key, side in [(k, report.get(k, {})) for k in ("home", "away")] + [
        (f"other{n}", other) for n, other in enumerate(others, start=1)
    ]:
        values |= given(side, ("touchdowns",), prefix=f"{key}-")
        if side.get("stalled"):
            values[f"{key}-stalled"] = "1"
        for i, line in enumerate(side.get("players", [])):
            values[f"{key}-{i}-player"] = str(line.get("player", ""))
            figures = ((s.key, s.stored) for s in EVERY_STAT)
            values |= {f"{key}-{i}-{f}": str(line[n]) for f, n in figures if n in line}
            if line.get("sent_off"):
                values[f"{key}-{i}-sent_off"] = "1"
        for hireling in side.get("hirelings", []):  # its row is its id: lines name it so
            fields = ("name", "kind", "position", "star", "price")
            values |= given(hireling, fields, prefix=f"{hireling.get('id', key)}-")
        for purpose, rolled in side.get("dice", {}).items():
            values[f"dice-{side.get('team')}-{purpose}"] = rolls_text(rolled)
    for purpose, rolled in report.get("dice", {}).items():
        by_subject = rolled if isinstance(rolled, dict) else {"match": rolled}
        values |= {f"dice-{who}-{purpose}": rolls_text(r) for who, r in by_subject.items()}
    for i, casualty in enumerate(report.get("casualties", [])):
        values |= given(casualty, ("victim", "by", "cause"), prefix=f"cas-{i}-")
        if casualty.get("recovered"):
            values[f"cas-{i}-recovered"] = "1"
        values |= {
            f"cas-{i}-die-{purpose}": rolls_text(rolled)
            for purpose, rolled in casualty.get("dice", {}).items()
        }
    shootout = report.get("shootout") or {}
    if shootout:  # a waiting report's, shown again to be changed
        values |= {
            f"shootout-{s}": str(shootout.get(f"penalties_{s}", 0)) for s in ("home", "away")
        }
    conceded = report.get("concession")
    if conceded:
        keys = {team: key for key, team in game.sides()}
        values["concession-team"] = keys.get(str(conceded.get("team")), "home")
        values["concession-kind"] = str(conceded.get("kind", "conceded"))
    return values


def given(fields: Mapping[str, Any], names: Sequence[str], prefix: str = "") -> dict[str, str]:
    return {f"{prefix}{name}": str(fields[name]) for name in names if fields.get(name) is not None}


def rolls_text(rolled: Any) -> str:
    return " ".join(map(str, rolled)) if isinstance(rolled, list) else str(rolled)


def report_of(
    values: Mapping[str, str], game: Game, dice: list[DiceNeed], league: reads.League
) -> FormReport:
    """The documented report format (docs/match-report.md), from the form's fields, with
    the form's row of each of its lines; a field that does not hold is a mistake beside
    it, left out of the report. ``dice``: the rolls the form asks of the game."""
    casualty_dice = league.ruleset.casualty_dice  # the rolls the edition reads a casualty from
    names = league.team_names()
    form = FormReport(game.home, game.away, casualty_dice, names, game.fixture, game.others)
    stats, rows = line_stats(league.ruleset), Rows.of(values)
    data: dict[str, Any] = {
        "match": game.match,
        "kind": game.kind,
        "home": side_of(values, "home", game.home, form, stats, rows),
        "away": side_of(values, "away", game.away, form, stats, rows),
        "casualties": casualties_of(values, casualty_dice, form, rows.casualties),
    }
    if game.others:  # a game of more than two teams (a Dungeon Bowl final) names its winner
        data["others"] = [side_of(values, k, t, form, stats, rows) for k, t in game.sides()[2:]]
        with form.checking():
            data["winner"] = winner_of(values, game)
    with form.checking():
        conceded_of(values, game, data)
    shootout_of(values, data, form)
    if not game.fixture and game.season:
        data["season"] = game.season
    for key in ("played_on", "weather", "referee"):
        if values.get(key, "").strip():
            data[key] = values[key].strip()
    dice_of(values, dice, data, form)
    form.report = form.validated(data)
    return form


def winner_of(values: Mapping[str, str], game: Game) -> str:
    """The team the form names as the winner of a game of more than two."""
    winner = values.get("winner", "").strip()
    teams = [team for _, team in game.sides()]
    if not winner:
        raise FieldInvalid("winner", "choose the team that won the game")
    if winner not in teams:  # an edited request: the form offers these
        raise FieldInvalid("winner", f"'{winner[:40]}' did not play this game")
    return winner


def conceded_of(values: Mapping[str, str], game: Game, data: dict[str, Any]) -> None:
    conceded = values.get("concession-team", "")
    sides = dict(game.sides())
    if conceded and conceded not in sides:  # an edited request: the form offers these
        raise FieldInvalid(
            "concession", f"the conceding side is one of the game's, not '{conceded[:20]}'"
        )
    if conceded:
        kind = values.get("concession-kind", "conceded")
        data["concession"] = {"team": sides[conceded], "kind": kind}


def shootout_of(values: Mapping[str, str], data: dict[str, Any], form: FormReport) -> None:
    """A level play-off's shoot-out after extra time, from the penalties each side scored
    (the form asks them of a play-off only); both left empty: none."""
    scored: dict[str, int | None] = {}
    for side in ("home", "away"):
        with form.checking():
            label = f"the {side} side's penalties"
            scored[side] = number(values, f"shootout-{side}", label, high=MAX_COUNT)
    if any(values.get(f"shootout-{side}", "").strip() for side in scored):
        data["shootout"] = {
            "extra_time": True,
            **{f"penalties_{side}": n or 0 for side, n in scored.items()},
        }


def side_of(
    values: Mapping[str, str],
    key: str,
    team: str,
    form: FormReport,
    stats: Sequence[LineStat],
    rows: Rows,
) -> dict[str, Any]:
    side: dict[str, Any] = {"team": team, "players": [], "dice": {}}
    with form.checking(leaves_out=True):
        touchdowns = number(values, f"{key}-touchdowns", "touchdowns", high=MAX_COUNT)
        if touchdowns is not None:
            side["touchdowns"] = touchdowns
    if values.get(f"{key}-stalled") == "1":
        side["stalled"] = True
    for i in range(rows.players):
        with form.checking(leaves_out=True):
            line = player_line(values, f"{key}-{i}", stats, form)
            if line:
                side["players"].append(line)
                form.line(key, "players").append(i)
    hirelings = []
    for i in range(rows.hirelings):
        with form.checking(leaves_out=True):
            hireling = hireling_of(values, key, i)
            if hireling:
                hirelings.append(hireling)
                form.line(key, "hirelings").append(i)
    if hirelings:
        side["hirelings"] = hirelings
    return side


def hireling_of(values: Mapping[str, str], key: str, i: int) -> dict[str, Any] | None:
    """A journeyman, mercenary or star who played this game only; player lines and
    casualties name it by its row's id (``home-h1``)."""
    row = f"{key}-h{i + 1}"
    name = values.get(f"{row}-name", "").strip()
    if not name:
        return None
    line: dict[str, Any] = {"id": row, "name": name, "kind": values.get(f"{row}-kind", "")}
    for field in ("position", "star"):
        if values.get(f"{row}-{field}", "").strip():
            line[field] = values[f"{row}-{field}"].strip()
    price = values.get(f"{row}-price", "").replace(",", "").strip()
    if price:
        gold = ascii_int(price, digits=9)
        if gold is None:
            raise FieldInvalid("hirelings", f"hireling {i + 1}'s price is gold, not '{price[:20]}'")
        line["price"] = gold  # its bounds are the report model's
    return line


def player_line(
    values: Mapping[str, str], row: str, asked: Sequence[LineStat], form: FormReport
) -> dict[str, Any] | None:
    """The player line of the form's row ``row`` (``home-0``), its figures those the form
    ``asked``; a figure that is not one is a mistake beside its cell, the line kept
    without it."""
    player = values.get(f"{row}-player", "").strip()
    side, line = row.rsplit("-", 1)  # "home-0": the home side's first line
    label = f"{side} player line {int(line) + 1}'s"
    stats: dict[str, int | None] = {}
    for stat in asked:
        with form.checking(leaves_out=True):
            said = f"{label} {stat.heading if stat in COUNTED or stat == MVP else stat.said}"
            stats[stat.key] = number(values, f"{row}-{stat.key}", said, high=MAX_COUNT)
    sent_off = values.get(f"{row}-sent_off") == "1"
    typed = sent_off or any(values.get(f"{row}-{s}", "").strip() for s in stats)
    if not player:
        if typed:
            raise FieldInvalid(f"{row}-player", "a line with figures names no player: choose one")
        return None
    figures: dict[str, Any] = {"player": player, **{k: v for k, v in stats.items() if v}}
    return {**figures, "sent_off": True} if sent_off else figures


def casualties_of(
    values: Mapping[str, str], casualty_dice: Mapping[str, str], form: FormReport, rows: int
) -> list[dict[str, Any]]:
    """Each casualty row named a victim; its dice by the edition's purposes (BB2025: the
    casualty D16 and the lasting injury D6; gold4: the injury 2D6, then the D6 or D66)."""
    found = []
    for i in range(rows):
        row = f"cas-{i}"
        victim = values.get(f"{row}-victim", "").strip()
        if not victim:
            with form.checking():
                no_victim(values, row, casualty_dice)
            continue
        line: dict[str, Any] = {"victim": victim, "cause": values.get(f"{row}-cause", "block")}
        if values.get(f"{row}-by", "").strip():
            line["by"] = values[f"{row}-by"].strip()
        if values.get(f"{row}-recovered") == "1":  # an apothecary or regeneration healed it
            line["recovered"] = True
        dice = casualty_rolls(values, row, casualty_dice, form)
        if dice:
            line["dice"] = dice
        found.append(line)
        form.line("casualties").append(i)
    return found


def no_victim(values: Mapping[str, str], row: str, casualty_dice: Mapping[str, str]) -> None:
    """A row left without a victim is no casualty; one that names who caused it, holds a
    roll or is ticked recovered is a casualty half entered, refused rather than dropped
    (its cause alone is the pick-list's default, not something typed)."""
    typed = [f"{row}-by", f"{row}-recovered", *(f"{row}-die-{p}" for p in casualty_dice)]
    if any(values.get(field, "").strip() for field in typed):
        said = f"casualty {int(row.removeprefix('cas-')) + 1}"
        raise FieldInvalid(f"{row}-victim", f"{said} names no victim: choose one")


def casualty_rolls(
    values: Mapping[str, str], row: str, casualty_dice: Mapping[str, str], form: FormReport
) -> dict[str, int | list[int]]:
    rolls: dict[str, int | list[int]] = {}
    said = f"casualty {int(row.removeprefix('cas-')) + 1}"  # "cas-0": the first row
    for purpose in casualty_dice:
        with form.checking():
            rolled = field_dice(values, f"{row}-die-{purpose}", purpose, said)
            if rolled is not None:
                rolls[purpose] = rolled
    return rolls


def dice_of(
    values: Mapping[str, str], needs: list[DiceNeed], data: dict[str, Any], form: FormReport
) -> None:
    """Each roll entered goes where the report format puts it: a team's own rolls on its
    side, the rest on the match."""
    for need in needs:
        key = f"dice-{need.subject or 'match'}-{need.purpose}"
        with form.checking():  # a roll refused is said beside its field, and not placed
            rolled = field_dice(values, key, need.purpose)
            if rolled is not None:
                place_roll(data, need, rolled)


def place_roll(data: dict[str, Any], need: DiceNeed, rolled: int | list[int]) -> None:
    sides = [data["home"], data["away"], *data.get("others", [])]
    side = next((s for s in sides if s["team"] == need.subject), None)
    if side is not None:
        side["dice"][need.purpose] = rolled
    elif need.subject is None:
        data.setdefault("dice", {})[need.purpose] = rolled
    else:
        data.setdefault("dice", {}).setdefault(need.purpose, {})[need.subject] = rolled


def field_dice(
    values: Mapping[str, str], field: str, purpose: str, said: str = ""
) -> int | list[int] | None:
    """The roll in the form's field ``field`` (None: left empty), refused beside it;
    ``said``: the line of the form it is in (``casualty 2``)."""
    try:
        return dice_values(values.get(field, ""), purpose)
    except FieldInvalid as error:
        raise FieldInvalid(field, f"{said}: {error.message}" if said else error.message) from None
