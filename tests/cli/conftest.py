"""The command line's tests see the width a pipe has: none.

``ledger`` fits its tables to ``$COLUMNS`` when that is set (cli/output.py). pytest
imports ``readline``, and GNU readline exports ``COLUMNS`` and ``LINES`` (80x24 without a
terminal) into the process's C environment, which every ``ledger`` a test starts would
inherit (``os.environ`` does not show them): the tests' output would be 80 columns wide
by accident. A test that wants a width says so (tests/cli/test_narrow.py)."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True)
def no_inherited_terminal_width() -> None:
    for name in ("COLUMNS", "LINES"):
        if name not in os.environ:
            os.unsetenv(name)
