"""``ledger whatif``: the league's season replayed under other rules, every difference shown.

Prints the real season and the what-if side by side (standings with each team's move,
points and TV/TR; treasury and fans; players whose SPP, advancements or value differ;
play-off places; every divergence and what the replay did), or, with ``--samples N``, the
distributions of N replays with different dice. ``--json`` prints one document. The same
command gives the same output, byte for byte (docs/whatif.md).
"""

from __future__ import annotations

import click

from cli.main import Session, pass_session
from cli.output import WIDE, gold, print_json, progress, say, table
from ledger.errors import InvalidInput
from ledger.projections.logfold import few_collections
from ledger.rules import REGISTRY
from ledger.whatif.compare import Comparison, Edition, TeamComparison, TeamFigures
from ledger.whatif.montecarlo import WORKERS, Distributions, TeamDistribution, run_samples
from ledger.whatif.service import ask, comparison
from ledger.whatif.spec import label, parse_options
from ledger.words import ordinal, plural


@click.command("whatif")
@WIDE
@click.argument("league", required=False, metavar="[LEAGUE]")
@click.option(
    "--ruleset",
    "ruleset_id",
    metavar="ID",
    help=f"Ruleset to replay under: {', '.join(REGISTRY)} (default: the league's own).",
)
@click.option(
    "--option",
    "-o",
    "options",
    multiple=True,
    metavar="KEY=VALUE",
    help="A ruleset option for the replay (repeatable; see 'ledger rulesets').",
)
@click.option("--season", type=int, help="Season to compare (default: the latest).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of simulated dice.")
@click.option(
    "--samples",
    type=int,
    metavar="N",
    help="Replay N times with seeds SEED+1..SEED+N and report the distributions.",
)
@click.option("--workers", type=int, default=WORKERS, show_default=True, hidden=True)
@click.option("--json", "as_json", is_flag=True, help="Print the whole comparison as JSON.")
@pass_session
def whatif(
    session: Session,
    league: str | None,
    ruleset_id: str | None,
    options: tuple[str, ...],
    season: int | None,
    seed: int,
    samples: int | None,
    workers: int,
    as_json: bool,
) -> None:
    """Replay LEAGUE (default: --league, or the only league) under another ruleset or other
    options, into a separate, disposable read model, and compare it with the real season."""
    if samples is not None and samples < 1:
        raise InvalidInput("--samples must be at least 1")
    ledger = session.ledger()
    slug = ledger.resolve_league(league or session.league_named)
    # A long league's log and its replays are state that lives to the end: collected as
    # the rebuild collects (few_collections). Not in ``ask`` and ``comparison``
    # themselves: the service's heap has a rule of its own (ledger/web/heap.py).
    with few_collections():
        asked = ask(ledger, slug, ruleset_id, parse_options(options), season)
        if samples is None:
            found = comparison(asked, season, seed)
        else:
            events = asked.events()  # the samples share the whole log
    if samples is None:
        if as_json:
            print_json(found)
        else:
            print_comparison(found, label(asked.target, asked.league))
        return
    with progress(f"Replaying {samples} times", samples, quiet=as_json) as advance:
        spread = run_samples(events, asked.target, samples, seed + 1, season, workers, advance)
    if as_json:
        print_json(spread)
    else:
        print_distributions(spread, label(asked.target, asked.league))


# --- one replay ----------------------------------------------------------------------------------


def rating(edition: Edition, figures: TeamFigures) -> str:
    value = figures.values.get(edition.rating_key, figures.rating)
    return gold(value)


def print_comparison(found: Comparison, what: str) -> None:
    say(f"What if {found.name} ({found.league}), season {found.season}, were played under {what}")
    say(f"Real: {found.actual.name} [{found.actual.ruleset}]")
    say(f"What-if: {found.whatif.name} [{found.whatif.ruleset}], dice seed {found.seed}")
    say(
        f"Dice of the what-if: {found.dice.recorded} recorded rolls reused,"
        f" {found.dice.simulated} simulated; {plural(len(found.divergences), 'divergence')}."
    )
    print_standings(found)
    print_teams(found)
    print_players(found)
    print_playoffs(found)
    print_divergences(found)


def print_standings(found: Comparison) -> None:
    real = found.actual.value_labels.get(found.actual.rating_key, "rating")
    other = found.whatif.value_labels.get(found.whatif.rating_key, "rating")
    # The places and points are the season's; TV and TR come from the team as the log
    # ends (as treasury and fans do), which for a past season is not its own figure.
    figures = real if real == other else f"{real} and {other}"
    say(f"\nStandings, season {found.season} (real | what-if); {figures} as the log ends")
    rows = [standing_line(found, t) for t in found.teams]
    headers = ["division", "team", "#", "pts", real, "|", "#", "pts", other, "move"]
    say(table(headers, rows, right=(2, 3, 4, 6, 7, 8, 9)))


def standing_line(found: Comparison, t: TeamComparison) -> list[object]:
    move = "" if t.rank_change is None else f"{t.rank_change:+d}" if t.rank_change else "="
    return [
        t.division or "-",
        t.team_id,
        t.actual.rank,
        t.actual.points,
        rating(found.actual, t.actual),
        "|",
        t.whatif.rank,
        t.whatif.points,
        rating(found.whatif, t.whatif),
        move,
    ]


def print_teams(found: Comparison) -> None:
    say("\nTreasury and fans (real | what-if) as the log ends, rolls of the what-if")
    headers = ["team", "list", "treasury", "fans", "|", "list", "treasury", "fans", "simulated"]
    rows = [
        [
            t.team_id,
            t.actual.roster,
            gold(t.actual.treasury),
            t.actual.fans,
            "|",
            t.whatif.roster,
            gold(t.whatif.treasury),
            t.whatif.fans,
            f"{t.dice.simulated} of {t.dice.simulated + t.dice.recorded}",
        ]
        for t in found.teams
    ]
    say(table(headers, rows, right=(2, 3, 6, 7, 8)))


def print_players(found: Comparison) -> None:
    if not found.players:
        say("\nEvery player's SPP, advancements and value are the same.")
        return
    say(f"\nPlayers that differ ({len(found.players)}): SPP earned (to spend), advancements, value")
    rows = []
    for p in found.players:
        a, b = p.actual, p.whatif
        rows.append(
            [
                p.team_id,
                p.name,
                f"{a.spp_earned} ({a.spp})" if a else "-",
                ", ".join(a.advancements) if a else "",
                gold(a.value) if a else "",
                a.status if a and a.status != "active" else "",
                "|",
                f"{b.spp_earned} ({b.spp})" if b else "not hired",
                ", ".join(b.advancements) if b else "",
                gold(b.value) if b else "",
                b.status if b and b.status != "active" else "",
            ]
        )
    headers = ["team", "player", "SPP", "advancements", "value", "", "|"]
    headers += ["SPP", "advancements", "value", ""]
    say(table(headers, rows, right=(2, 4, 7, 9)))


def print_playoffs(found: Comparison) -> None:
    playoffs = found.playoffs
    if playoffs is None:
        return
    say(f"\nPlay-off places ({playoffs.places})")
    say(f"  real:    {', '.join(playoffs.actual)}")
    say(f"  what-if: {', '.join(playoffs.whatif)}")
    if not playoffs.qualify and not playoffs.miss:
        say("  the same teams qualify")
    if playoffs.qualify:
        say(f"  qualify only in the what-if: {', '.join(playoffs.qualify)}")
    if playoffs.miss:
        say(f"  miss out only in the what-if: {', '.join(playoffs.miss)}")


def print_divergences(found: Comparison) -> None:
    if not found.divergences:
        say("\nNo divergences: every decision of the log is allowed as recorded.")
        return
    say(f"\nDivergences ({len(found.divergences)}): what the replay did instead [policy]")
    rows = [
        [
            d.seq,
            d.team or "",
            d.subject or "",
            d.rule,
            d.reason,
            f"{d.action} [{d.policy}]",
        ]
        for d in found.divergences
    ]
    say(table(["event", "team", "subject", "rule", "reason", "replay"], rows, right=(0,)))


# --- many replays ------------------------------------------------------------------------------


def likely(places: list[float]) -> str:
    shown = [(i + 1, p) for i, p in enumerate(places) if p > 0]
    shown.sort(key=lambda entry: (-entry[1], entry[0]))
    return ", ".join(f"{ordinal(place)} {p:.0%}" for place, p in shown[:3])


def expected_place(t: TeamDistribution) -> float:
    return sum((i + 1) * p for i, p in enumerate(t.places))


def distribution_line(t: TeamDistribution) -> list[object]:
    return [
        t.division or "-",
        t.team_id,
        likely(t.places),
        f"{t.playoffs:.1%}",
        f"{t.champion:.1%}",
        f"{t.rating.mean:,.1f} ± {t.rating.sd:,.1f}",
        f"{t.treasury.mean:,.0f} ± {t.treasury.sd:,.0f}",
    ]


def print_distributions(found: Distributions, what: str) -> None:
    last = found.first_seed + found.samples - 1
    say(
        f"Monte Carlo: {found.samples} replays of {found.league}, season {found.season or '-'},"
        f" under {what} (seeds {found.first_seed} to {last})"
    )
    key = found.whatif.value_labels.get(found.whatif.rating_key, "rating")
    headers = ["division", "team", "places", "play-offs", "champion", key, "treasury"]
    order = sorted(found.teams, key=lambda t: (t.division, expected_place(t), t.team_id))
    rows = [distribution_line(t) for t in order]
    say(table(headers, rows, right=(3, 4, 5, 6)))


COMMANDS: list[click.Command] = [whatif]
