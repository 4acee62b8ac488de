"""The league service (``ledger serve``): an edge like the CLI (DESIGN.md decision 8).

``app.py`` wires it, ``auth.py`` says who is asking, ``problems.py`` turns the ledger's
errors into RFC 9457 problem details, ``api*.py`` are the JSON API and ``pages.py`` the
server-rendered pages. No rule lives here: every route authorizes, then calls the same
``LeagueLedger`` command or read-model query as the command line.
"""
