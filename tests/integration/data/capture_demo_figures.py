"""Print the demo ledger's figures as JSON, as the code on PYTHONPATH reads them.

How demo-before-bb2025.json was made, from a worktree of the commit before the rename
(0c15d47), so that the figures are the old code's own and not typed by hand::

    git worktree add /tmp/oldmain 0c15d47 && cd /tmp/oldmain
    PYTHONPATH=. python -c "import sys; from cli.main import main; \\
        sys.argv = ['ledger', '--db', 'demo.db', 'demo']; main()"
    PYTHONPATH=. python capture_demo_figures.py demo.db > demo-before-bb2025.json
"""

from __future__ import annotations

import json
import sys
from typing import Any

from click.testing import CliRunner

from cli.main import cli


def run(db: str, *args: str) -> Any:
    result = CliRunner().invoke(cli, ["--db", db, *args, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def figures(db: str) -> dict[str, Any]:
    commands = [["league", "list"], ["league", "show"], ["teams"], ["standings"], ["leaders"]]
    teams = [team["team_id"] for team in run(db, "teams")]
    commands += [["roster", team] for team in teams] + [["treasury", team] for team in teams]
    return {" ".join(command): run(db, *command) for command in commands}


if __name__ == "__main__":
    print(json.dumps(figures(sys.argv[1]), indent=1, sort_keys=True))
