"""``ledger generate``: a synthetic league for trying the ledger out and for benchmarks."""

from __future__ import annotations

import click

from cli.main import Session, pass_session
from cli.output import progress, say
from ledger.generate import Spec, generate
from ledger.words import plural


@click.command("generate")
@click.option("--teams", type=click.IntRange(4, 5000), default=16, show_default=True)
@click.option("--seasons", type=click.IntRange(1, 100), default=1, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--ruleset", "ruleset_id", default="bb2025", show_default=True)
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
    with progress("Recording games", fixtures) as advance:
        summary = generate(session.ledger(), spec, progress=advance)
    say(
        f"Generated league {summary.league}: {plural(summary.matches, 'game')},"
        f" {plural(summary.events, 'event')}"
        f" in {summary.seconds:.1f} s."
    )


def fixtures_per_season(teams: int, size: int) -> int:
    groups = max(1, teams // size)
    sizes = [len(range(i, teams, groups)) for i in range(groups)]
    return sum(n * (n - 1) // 2 for n in sizes)


COMMANDS = [generate_command]
