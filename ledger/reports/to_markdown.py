"""The Markdown report: the same content as the HTML, without the charts (their data is
given as tables), for a league's forum post or wiki page."""

from __future__ import annotations

import re

from jinja2 import Environment, PackageLoader, StrictUndefined

from ledger.reports.figures import figure_table, season_steps
from ledger.reports.model import SeasonReport
from ledger.reports.text import FILTERS
from ledger.words import ordinal

SPECIAL = re.compile(r"([|\\*_`\[\]<>&])")
"""Characters that would break a table cell or start Markdown formatting (``&`` starts
an entity: ``&amp;`` typed would show as ``&``)."""


def cell(value: object) -> str:
    """Text safe inside a Markdown table cell: one line, Markdown characters escaped."""
    text = " ".join(str(value).split())
    return SPECIAL.sub(r"\\\1", text)


def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("ledger.reports", "templates"),
        autoescape=False,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters.update(FILTERS)
    env.filters.update({"cell": cell, "ordinal": ordinal})
    return env


def render_markdown(report: SeasonReport) -> str:
    figures = {
        "steps": [s.label for s in season_steps(report)],
        "rating": figure_table(report, "rating"),
        "treasury": figure_table(report, "treasury"),
    }
    text = environment().get_template("report.md.j2").render(report=report, figures=figures)
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"
