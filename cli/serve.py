"""``ledger serve``: the league service (ledger/web) under uvicorn.

SQLite (the default) serves with one worker; more are allowed (WAL mode lets them share
the file; docs/performance-journal.md shows what they buy). PostgreSQL
(``LEDGER_DATABASE_URL``) serves with ``--workers N`` processes sharing the store. Each
worker opens the ledger once; the settings reach the workers through the environment.
"""

from __future__ import annotations

import os

import click

from cli.main import Session, pass_session


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Worker processes (each opens the ledger once).",
)
@click.option(
    "--proxy",
    is_flag=True,
    help="Behind a reverse proxy on this machine: trust its X-Forwarded-* headers.",
)
@pass_session
def serve(session: Session, host: str, port: int, workers: int, proxy: bool) -> None:
    """Serve the ledger's JSON API (/api/, docs at /docs) and its web pages."""
    session.ledger()  # a missing --db file is refused here, not in every worker
    session.close()
    run(session, host, port, workers, proxy)


def run(session: Session, host: str, port: int, workers: int = 1, proxy: bool = False) -> None:
    import uvicorn

    if not session.settings.database_url:  # the workers read the store from these
        os.environ["LEDGER_DB"] = str(session.settings.sqlite_path)
        os.environ.pop("LEDGER_DATABASE_URL", None)  # --db won over it (settings.py)
    click.echo(f"Serving the ledger ({session.settings.store}) on http://{host}:{port}/", err=True)
    uvicorn.run(
        "ledger.web.app:serve_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        proxy_headers=proxy,
        forwarded_allow_ips="127.0.0.1" if proxy else None,
        log_level="info",
    )


COMMANDS = [serve]
