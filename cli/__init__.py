"""The ``ledger`` command line: parse, call the application, print. Nothing else."""
