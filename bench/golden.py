"""A fingerprint of what the fold computes, for changes that must compute the same.

    python bench/golden.py [--samples N] [--whatif-db PATH] [--ledger-db PATH]

A change made for speed must leave every figure as it was. This prints one SHA-256 of:

- the Monte Carlo samples (seeds 1..N) of the 16-team season of ``bench/whatif.py``
  under gold4, lrb6-zal, dz3, lrb6, bb2020 and bb2025 (its own edition: the native fold);
- an explained replay of that season under each of them (seed 7): every record, every
  audit line, every divergence and the dice counted;
- the live fold of the 10^4 ledger of ``bench/run.py`` (its league under its own
  ruleset): every record and line.

Run it before and after the change (the old code from a git worktree on ``PYTHONPATH``,
run from outside both checkouts): the two lines must be the same. The leagues are
the cached ones the other benchmarks make (generated on first use).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any, cast

from run import SIZES, TIMED_LEAGUE, generated  # bench/: the leagues' makers
from whatif import SLUG, build

from ledger.bootstrap import Settings, close_ledger, open_ledger
from ledger.domain.events import LedgerEvent
from ledger.domain.state import Line, TeamGameLine, games_of
from ledger.whatif.montecarlo import Sampler, Work, season_of
from ledger.whatif.replay import Outcome, replay, source_ruleset, translate
from ledger.whatif.service import ask

ROOT = Path(__file__).resolve().parents[1]
TARGETS = ("gold4", "lrb6-zal", "dz3", "lrb6", "bb2020", "bb2025")


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=25)
    parser.add_argument("--whatif-db", type=Path, default=ROOT / ".benchmarks" / "whatif-league.db")
    parser.add_argument("--ledger-db", type=Path, default=ROOT / ".benchmarks" / "ledger-10000.db")
    return parser.parse_args()


def league_events(db: Path, slug: str, target: str) -> tuple[list[LedgerEvent], Any]:
    ledger = open_ledger(Settings(sqlite_path=db, user="golden"))
    try:
        asked = ask(ledger, slug, target, {})
        return asked.events(), asked.target
    finally:
        close_ledger(ledger)


def outcome_lines(outcome: Outcome) -> list[str]:
    """Every record and line of a replay's store, then its divergences and dice, as JSON."""
    store = outcome.store
    found = []
    for _, table in sorted(store.records.items(), key=lambda item: item[0].__name__):
        for record in sorted(table.values(), key=lambda r: r.key_values()):
            found.append(canonical(record.model_dump(mode="json")))
    for _, lines in sorted(as_computed(store.lines).items()):
        found += [canonical(line.model_dump(mode="json")) for line in lines]
    found += [canonical(d.model_dump(mode="json")) for d in outcome.divergences]
    found.append(canonical({"simulated": outcome.simulated, "recorded": outcome.recorded}))
    return found


def as_computed(lines: dict[type[Line], list[Line]]) -> dict[str, list[Any]]:
    """A store's lines by class name, the players' game lines each on its own (as the fold
    computes them, whichever rows hold them: one a side of a game since the thirty-second
    session, ``TeamGameLine``), so that the hash of unchanged figures is unchanged."""
    found: dict[str, list[Any]] = {}
    for kind, kept in lines.items():
        if kind is TeamGameLine:
            found["PlayerGameLine"] = games_of(cast("list[TeamGameLine]", kept))
        else:
            found[kind.__name__] = list(kept)
    return found


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def whatifs(db: Path, samples: int, digest: Any) -> None:
    build(db)  # the 16-team season, made on first use
    for target in TARGETS:
        events, ruleset = league_events(db, SLUG, target)
        steps = translate(events, ruleset)
        options = ruleset.options.model_dump(mode="json")
        work = Work(events, steps, ruleset.id, options, season_of(events, None))
        sampler = Sampler.of(work)
        for seed in range(1, samples + 1):
            digest.update(canonical(sampler(seed)).encode())
        for line in outcome_lines(replay(events, ruleset, seed=7, steps=steps)):
            digest.update(line.encode())
        print(f"  {target}: {samples} samples and a replay", file=sys.stderr)


def live_fold(db: Path, digest: Any) -> None:
    generated(db, SIZES[10_000])  # the 10^4 ledger, made on first use
    events, _ = league_events(db, TIMED_LEAGUE, "bb2025")
    for line in outcome_lines(replay(events, source_ruleset(events), seed=3)):
        digest.update(line.encode())
    print(f"  the live fold of {len(events):,} events", file=sys.stderr)


def main() -> None:
    args = arguments()
    digest = hashlib.sha256()
    whatifs(args.whatif_db, args.samples, digest)
    live_fold(args.ledger_db, digest)
    print(digest.hexdigest())


if __name__ == "__main__":
    main()
