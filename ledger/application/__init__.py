"""Commands: the LeagueLedger application and the plans that validate each command."""
