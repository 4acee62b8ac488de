"""``ledger report``: season reports (HTML, Markdown, CSV, JSON). Being built."""

from __future__ import annotations

import click

COMMANDS: list[click.Command] = []
