"""Fixtures shared by the projection tests."""

from __future__ import annotations

import pytest

from ledger.projections import parallel


@pytest.fixture
def shared(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every league worth a process of its own, on any machine; records how many shares
    each parallel fold had."""
    monkeypatch.setattr(parallel, "BREAK_EVEN", 1)
    monkeypatch.setattr(parallel, "HEAD_START", 0)
    calls: list[int] = []
    folding = parallel.fold_shares

    def counted(shares: list[parallel.Share]) -> list[parallel.Folded]:
        calls.append(len(shares))
        return folding(shares)

    monkeypatch.setattr(parallel, "fold_shares", counted)
    return calls
