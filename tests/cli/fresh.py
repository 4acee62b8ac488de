"""``ledger ...`` run in a process of its own, to see which modules it imported: start-up
cost is what a command imports, and only a fresh interpreter shows it."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass

PROBE = """
import json, sys
argv, watched = json.loads(sys.argv[1]), tuple(json.loads(sys.argv[2]))
sys.argv = ["ledger", *argv]
from cli.main import main
try:
    main()
except SystemExit as done:
    code = done.code
inside = tuple(w + "." for w in watched)
heavy = sorted(m for m in sys.modules if m in watched or m.startswith(inside))
print(json.dumps({"code": code, "heavy": heavy}), file=sys.stderr)
"""


@dataclass(frozen=True)
class Imported:
    code: int
    out: str
    heavy: list[str]
    """The modules imported that are, or are inside, one of the packages watched."""


def imported(argv: list[str], watched: tuple[str, ...]) -> Imported:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(argv), json.dumps(watched)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    seen = json.loads(done.stderr.strip().splitlines()[-1])
    return Imported(seen["code"], done.stdout, seen["heavy"])
