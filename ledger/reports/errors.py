"""The problems a season report can meet, as ``LedgerError``s the CLI prints in one line."""

from __future__ import annotations

from ledger.errors import InvalidInput, LedgerError


class UnknownReportFormat(InvalidInput):
    code = "unknown-format"


class ReportNotWritten(LedgerError):
    code = "report-not-written"


class WhatIfUnavailable(LedgerError):
    code = "whatif-unavailable"
