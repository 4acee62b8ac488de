"""Shell completion: ``ledger completion bash|zsh|fish`` prints click's script, and the
arguments that name a league, team, player or match complete from the ledger itself.

The completers are attached here by parameter name (``attach_completers``, called as the
root loads each command), so that no command's module needs to know about completion.
They read the read models only (no catch-up, nothing written, the file opened read-only),
and say nothing on any error: a broken ledger must not print into the user's prompt.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import click
from click.shell_completion import get_completion_class

from ledger.settings import settings_from

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

SHELLS = ("bash", "zsh", "fish")

Source = Callable[["Engine", click.Context], list[str]]
"""Where a parameter's values come from: the ledger's database, the command line so far."""


@click.command("completion")
@click.argument("shell", type=click.Choice(SHELLS))
def completion(shell: str) -> None:
    """Print the shell completion script for bash, zsh or fish.

    \b
    bash:  eval "$(ledger completion bash)"     (in ~/.bashrc)
    zsh:   eval "$(ledger completion zsh)"      (in ~/.zshrc)
    fish:  ledger completion fish > ~/.config/fish/completions/ledger.fish
    """
    from cli.main import cli

    script = get_completion_class(shell)
    assert script is not None  # every name in SHELLS is one of click's
    click.echo(script(cli, {}, "ledger", "_LEDGER_COMPLETE").source())


COMMANDS = [completion]


# --- what a name can be completed from -----------------------------------------------------


def read_engine(ctx: click.Context) -> Engine | None:
    """The ledger's database as ``--db`` and the environment name it, read-only; None when
    there is no ledger there (completion never creates one)."""
    import sqlalchemy as sa

    settings = settings_from(ctx.find_root().params.get("db"))
    if settings.database_url:
        from ledger.bootstrap import postgres_engine

        return postgres_engine(settings.database_url)
    path = settings.sqlite_path
    if not path.is_file():
        return None
    return sa.create_engine(f"sqlite:///file:{path.resolve()}?mode=ro&uri=true")


def column(engine: Engine, kind: Any, name: str, **where: Any) -> list[str]:
    import sqlalchemy as sa

    from ledger.projections.sql import table_of

    table = table_of(kind)
    query = sa.select(table.c[name]).where(*(table.c[k] == v for k, v in where.items()))
    with engine.connect() as conn:
        return [str(value) for value in conn.execute(query).scalars()]


def league_key(engine: Engine, ctx: click.Context) -> str | None:
    """The league the command line names (``--league``), or the ledger's only one."""
    from ledger.domain.state import LeagueRow

    slug = ctx.find_root().params.get("league") or os.environ.get("LEDGER_LEAGUE")
    found = column(engine, LeagueRow, "league_id", **({"slug": slug} if slug else {}))
    return found[0] if len(found) == 1 else None


def leagues(engine: Engine, ctx: click.Context) -> list[str]:
    from ledger.domain.state import LeagueRow

    return column(engine, LeagueRow, "slug")


def of_league(kind_name: str, field: str) -> Source:
    def names(engine: Engine, ctx: click.Context) -> list[str]:
        from ledger.domain import state

        league = league_key(engine, ctx)
        kind = getattr(state, kind_name)
        return [] if league is None else column(engine, kind, field, league_id=league)

    return names


teams = of_league("TeamRow", "team_id")
players = of_league("PlayerRow", "player_id")
matches = of_league("MatchRow", "match_id")


def refs(engine: Engine, ctx: click.Context) -> list[str]:
    """What ``history`` takes: a team, a player, or ``match:<id>``."""
    return [*teams(engine, ctx), *players(engine, ctx)] + [
        f"match:{m}" for m in matches(engine, ctx)
    ]


def completer(source: Source) -> Callable[[click.Context, click.Parameter, str], list[str]]:
    def complete(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
        try:
            engine = read_engine(ctx)
            if engine is None:
                return []
            try:
                found = source(engine, ctx)
            finally:
                engine.dispose()
        except Exception:  # completion is a convenience: never an error in the prompt
            return []
        return sorted(name for name in set(found) if name.startswith(incomplete))

    return complete


COMPLETERS: dict[str, Source] = {
    "league": leagues,
    "team_id": teams,
    "team": teams,
    "teams": teams,
    "player": players,
    "players": players,
    "match_id": matches,
    "ref": refs,
}
"""Parameter names (as the commands declare them) -> where their values come from."""


def attach_completers(command: click.Command) -> None:
    """Give each parameter named in ``COMPLETERS`` (that has no completion of its own and
    takes free text) its completer, in ``command`` and all its subcommands."""
    for param in parameters(command):
        source = COMPLETERS.get(param.name or "")
        free_text = isinstance(param.type, click.types.StringParamType)
        if source is not None and free_text and param._custom_shell_complete is None:
            param._custom_shell_complete = completer(source)


def parameters(command: click.Command) -> Iterator[click.Parameter]:
    yield from command.params
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            yield from parameters(sub)
