"""Printing one match (``ledger match show``, and ``match record``'s summary)."""

from __future__ import annotations

from cli.output import dice_text, gold, say, table
from ledger.reports.match_model import (
    OTHER_ACHIEVEMENTS,
    Die,
    MatchSheet,
    PlayerSheet,
    SideSheet,
)
from ledger.reports.text import effect

SOURCES = {"table": "entered", "ledger": "rolled by the ledger"}


def print_sheet(sheet: MatchSheet) -> None:
    say(headline(sheet))
    for line in circumstances(sheet):
        say(line)
    if sheet.recorded_seq is None:
        return
    if sheet.players:
        say("\nPlayers")
        say(players_table(sheet.players))
    if sheet.casualties:
        say("\nCasualties")
        say(casualties_table(sheet))
    if sheet.status == "played":
        say("\nPost-game, as the league's ruleset has it")
        for side in sheet.sides:
            say(post_game(side, sheet.closes))
        money = money_table(sheet)
        if money:
            say(money)
    if sheet.dice:
        say("\nDice")
        say(dice_table(sheet.dice))
    if sheet.corrections:
        say("\nCorrections")
        for c in sheet.corrections:
            why = f": {c.reason}" if c.reason else ""
            say(f"event {c.seq} ({when(c.at)}, by {c.by}): {c.summary}{why}")


def headline(sheet: MatchSheet) -> str:
    home, away = sheet.sides[0], sheet.sides[1]
    score = (
        f"{home.name} {home.touchdowns}-{away.touchdowns} {away.name}"
        if sheet.recorded_seq is not None
        else f"{home.name} v {away.name}"
    )
    where = ", ".join(
        part
        for part in (
            sheet.kind,
            f"season {sheet.season}" if sheet.season else "",
            f"round {sheet.round}" if sheet.round else "",
            sheet.stage if sheet.stage not in ("", "regular") else "",
        )
        if part
    )
    return f"Match {sheet.match_id}: {score} ({where})"


def circumstances(sheet: MatchSheet) -> list[str]:
    if sheet.recorded_seq is None:
        return [f"Not recorded yet ({sheet.status})."]
    lines = [
        f"Recorded as event {sheet.recorded_seq} by {sheet.recorded_by},"
        f" {when(sheet.recorded_at or '')}"
        + (f"; played on {sheet.played_on}" if sheet.played_on else "")
    ]
    if sheet.status == "voided":
        lines.append("VOIDED: this report no longer counts (see the corrections below).")
    names = {side.team_id: side.name for side in sheet.sides}
    if sheet.conceded_by:
        lines.append(f"Conceded by {names.get(sheet.conceded_by, sheet.conceded_by)}.")
    elif sheet.status == "played":
        winner = names.get(sheet.winner or "", sheet.winner)
        lines.append(f"Winner: {winner}." if sheet.winner else "A draw.")
    extras = [
        f"Weather: {sheet.weather}" if sheet.weather else "",
        f"Referee: {sheet.referee}" if sheet.referee else "",
    ]
    if any(extras):
        lines.append("; ".join(e for e in extras if e) + ".")
    return lines


def when(at: str) -> str:
    return at[:19].replace("T", " ")


def players_table(players: list[PlayerSheet]) -> str:
    headers = ["team", "player", "TD", "comp", "int", "cas", "MVP", "other", "SPP", "injury"]
    rows = [
        [
            p.team,
            p.name,
            p.touchdowns,
            p.completions,
            p.interceptions,
            p.casualties,
            p.mvps,
            other(p),
            "" if p.spp is None else p.spp,
            p.injury.replace("_", " "),
        ]
        for p in players
    ]
    return table(headers, rows, right=(2, 3, 4, 5, 6, 8))


def other(p: PlayerSheet) -> str:
    parts = [
        f"{getattr(p, field)} {name}" for field, name in OTHER_ACHIEVEMENTS if getattr(p, field)
    ]
    return ", ".join([*parts, *(["sent off"] if p.sent_off else [])])


def casualties_table(sheet: MatchSheet) -> str:
    rows = [
        [
            c.victim_name,
            c.by_name or "",
            c.cause,
            c.outcome.replace("_", " ") + (" (recovered)" if c.recovered else ""),
            ", ".join(effect(e) for e in c.effects),
            "; ".join(roll(d) for d in c.dice),
        ]
        for c in sheet.casualties
    ]
    return table(["victim", "by", "cause", "outcome", "effects", "dice"], rows)


def post_game(side: SideSheet, closes: bool) -> str:
    fans = f"fans {side.fans_after}" if side.fans_after is not None else "fans unknown"
    if side.fans_before is not None and side.fans_after is not None:
        change = side.fans_after - side.fans_before
        fans = f"fans {side.fans_before} -> {side.fans_after} ({change:+d})"
    net = sum(m.amount for m in side.gold)
    said = [f"{side.name}: {fans}", f"treasury {net:+,}"]
    if closes:  # an edition whose teams close nothing: no "not closed" to worry about
        done = side.closed_seq
        said.append(f"post-game closed (event {done})" if done else "post-game not closed")
    return "; ".join(said)


def money_table(sheet: MatchSheet) -> str:
    rows = [
        [side.team_id, m.seq, m.kind.replace("_", " "), gold(m.amount), m.note]
        for side in sheet.sides
        for m in side.gold
    ]
    if not rows:
        return ""
    return table(["team", "event", "what", "gold", "how"], rows, right=(1, 3))


def dice_table(dice: list[Die]) -> str:
    rows = [
        [d.step, d.purpose, d.dice, d.subject_name or "the match", values(d), SOURCES[d.source]]
        for d in dice
    ]
    return table(["step", "purpose", "dice", "for", "values", "by"], rows)


def values(d: Die) -> str:
    return dice_text(d.values)


def roll(d: Die) -> str:
    by = " by the ledger" if d.source == "ledger" else ""
    return f"{d.purpose} {d.dice} {values(d)}{by}"


def rolled_line(sheet: MatchSheet) -> str:
    """What ``--roll`` rolled, in one line."""
    rolled = [d for d in sheet.rolled if d.step != "close"]
    if not rolled:
        return "The ledger rolled nothing: the report gave every die."
    shown = "; ".join(
        f"{d.purpose} {d.dice} for {d.subject_name or 'the match'}: {values(d)}" for d in rolled
    )
    return f"The ledger rolled: {shown}."
