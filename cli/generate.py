"""``ledger generate``: a synthetic league for trying the ledger out and for benchmarks."""

from __future__ import annotations

import sys

import click

from cli.main import Session, pass_session
from cli.output import say
from ledger.generate import Spec, generate


@click.command("generate")
@click.option("--teams", type=click.IntRange(4, 5000), default=16, show_default=True)
@click.option("--seasons", type=click.IntRange(1, 100), default=1, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--ruleset", "ruleset_id", default="bb2020", show_default=True)
@click.option("--division-size", type=click.IntRange(4, 64), default=8, show_default=True)
@click.option("--slug", default="generated", show_default=True, help="The league's id.")
@pass_session
def generate_command(
    session: Session,
    teams: int,
    seasons: int,
    seed: int,
    ruleset_id: str,
    division_size: int,
    slug: str,
) -> None:
    """Create a synthetic league of TEAMS teams over SEASONS seasons, every game recorded
    through the real commands with dice from a generator seeded by SEED."""
    spec = Spec(
        teams=teams,
        seasons=seasons,
        seed=seed,
        ruleset=ruleset_id,
        division_size=division_size,
        slug=slug,
    )
    fixtures = seasons * fixtures_per_season(teams, division_size)
    with click.progressbar(length=fixtures, label="Recording games", file=sys.stderr) as bar:
        summary = generate(session.ledger(), spec, progress=bar.update)
    say(
        f"Generated league {summary.league}: {summary.matches} games, {summary.events} events"
        f" in {summary.seconds:.1f} s."
    )


def fixtures_per_season(teams: int, size: int) -> int:
    groups = max(1, teams // size)
    sizes = [len(range(i, teams, groups)) for i in range(groups)]
    return sum(n * (n - 1) // 2 for n in sizes)


COMMANDS = [generate_command]
