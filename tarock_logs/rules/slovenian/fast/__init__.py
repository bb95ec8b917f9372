"""The Slovenian bulk-audit fast path (pure standard library): :mod:`.fastpath` replays an
ordinary legal hand over bitmasks (card tables in :mod:`.cardbits`) and scores it with the
reference scorer from the facts :mod:`.fastfacts` reads off its trick records; anything unusual
is left to the reference engine (``SlovenianSession.fast_replay`` declines)."""
