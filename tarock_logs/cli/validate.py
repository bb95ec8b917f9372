"""``tarock validate`` (filled in by the foundation work)."""
