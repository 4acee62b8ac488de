"""Adapters to the eventsourcing library's stores: the event mapper and store settings."""
