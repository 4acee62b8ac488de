"""One entry point for every format: the report model in, the files' contents out."""

from __future__ import annotations

from typing import Literal

import orjson

from ledger.reports.model import SeasonReport, report_schema
from ledger.reports.to_csv import render_csv
from ledger.reports.to_html import render_html
from ledger.reports.to_markdown import render_markdown

Format = Literal["html", "md", "csv", "json"]
FORMATS: tuple[Format, ...] = ("html", "md", "csv", "json")


def render_json(report: SeasonReport) -> str:
    """The model's own dump: ``ledger schema report`` prints the schema it follows."""
    return orjson.dumps(report.model_dump(mode="json"), option=orjson.OPT_INDENT_2).decode() + "\n"


def schema_json() -> str:
    return orjson.dumps(report_schema(), option=orjson.OPT_INDENT_2).decode() + "\n"


def render(report: SeasonReport, fmt: Format) -> str | dict[str, str]:
    """A document's text, or for CSV the text of each file by name."""
    if fmt == "html":
        return render_html(report)
    if fmt == "md":
        return render_markdown(report)
    if fmt == "json":
        return render_json(report)
    return render_csv(report)
