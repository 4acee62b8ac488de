"""Time the season reports of a 20-team, 3-season league (target: under 5 s).

    python bench/report.py [--db PATH]

The league is made once by the synthetic league generator through the real commands
(``ledger generate --teams 20 --seasons 3``, one division, a full round robin of 19
rounds each season) and kept in --db (default .benchmarks/report-league.db, which git
ignores); later runs only time the reports. Prints the seconds each format took,
from the read models as they stand to the written file, and the total.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.generate import Spec, generate
from ledger.reports.render import FORMATS
from ledger.reports.service import make_report, write_report

ROOT = Path(__file__).resolve().parents[1]

SLUG = "big"


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=ROOT / ".benchmarks" / "report-league.db")
    return parser.parse_args()


def main() -> None:
    args = arguments()
    ledger = open_ledger(Settings(sqlite_path=args.db, user="bench"))
    try:
        if not any(row.slug == SLUG for row in ledger.leagues()):
            started = time.perf_counter()
            made = generate(ledger, Spec(teams=20, seasons=3, division_size=20, slug=SLUG))
            print(
                f"built the league in {time.perf_counter() - started:.1f} s:"
                f" {made.events:,} events, {made.matches} games ({args.db})"
            )
        out = Path(tempfile.mkdtemp(prefix="ledger-bench-"))
        total = 0.0
        for fmt in FORMATS:
            started = time.perf_counter()
            made = make_report(ledger, SLUG)
            path = write_report(made, fmt, out / f"report.{'zip' if fmt == 'csv' else fmt}")
            seconds = time.perf_counter() - started
            total += seconds
            print(f"{fmt:5} {seconds:6.3f} s  {path.stat().st_size:>9,} bytes")
        print(f"total {total:6.3f} s for {len(FORMATS)} reports of a 20-team, 3-season league")
    finally:
        close_ledger(ledger)


if __name__ == "__main__":
    main()
