"""Folds of the event log into read models: the fold, its stores, the runner, queries."""
