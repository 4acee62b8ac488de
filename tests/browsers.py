"""What the tests that drive headless Chromium share: finding the browser (or skipping,
and failing under ``LEDGER_REQUIRE_BROWSER=1`` so a missing browser cannot pass
unnoticed) and the folder their screenshots are kept in."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def chromium(checked: str) -> str:
    """The browser to run; ``checked`` says what would go unchecked without it."""
    found = os.environ.get("LEDGER_CHROMIUM") or shutil.which("chromium")
    if found:
        return found
    reason = (
        "headless Chromium not found (Debian package 'chromium', installed by .ci/run;"
        f" or set LEDGER_CHROMIUM): {checked} not checked in a browser"
    )
    if os.environ.get("LEDGER_REQUIRE_BROWSER") == "1":
        pytest.fail(reason)
    pytest.skip(reason)


def artifacts(*under: str) -> Path:
    """Where screenshots are kept: $LEDGER_ARTIFACTS, else artifacts/ in the checkout."""
    folder = Path(os.environ.get("LEDGER_ARTIFACTS") or ROOT / "artifacts").joinpath(*under)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
