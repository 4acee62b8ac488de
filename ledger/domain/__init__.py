"""Facts: events, value objects, state records and the league log."""
