"""Season reports: a league's season as it would publish it, in HTML, Markdown, CSV and JSON.

``build.build_report`` makes the report model (``model.SeasonReport``) from the read
models; ``render`` turns it into files; ``service.produce_report`` does both for a league
of a ledger and writes the result where asked. docs/reports.md is the user's guide.
"""
