"""The Slovenian bulk-audit path: :mod:`.fastpath` marshals a hand into the native engine
(``_native/slohand.h``) and its answer back; :mod:`.cardbits` is the card-id codec the two
share. No rules live here: a hand the native engine does not take is the reference's, whole
(``SlovenianSession.fast_replay`` declines)."""
