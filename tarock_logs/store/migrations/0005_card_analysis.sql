-- Per-card analysis with all cards visible (tarock ingest --analyse; docs/analysis.md).
-- Derived, like the verdicts: replaced per hand (delete then insert), keyed by hand_id.
-- Values are points of the score sheet for the declarer side (klop: for the player himself);
-- loss is what the card cost the player's own side against his best legal card.

CREATE TABLE analysed_hands (
    hand_id VARCHAR NOT NULL,
    last_tricks UTINYINT NOT NULL,  -- the tricks analysed at the end of the hand
    backend VARCHAR NOT NULL,       -- native | python
    cards USMALLINT NOT NULL,       -- cards valued
    undecided USMALLINT NOT NULL,   -- cards whose search ran out of budget
    skipped VARCHAR,                -- why the hand (or the rest of it) was not analysed
    seconds DOUBLE,
    analysed_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE card_analysis (
    hand_id VARCHAR NOT NULL,
    action_index USMALLINT NOT NULL,
    trick UTINYINT NOT NULL,
    tricks_left UTINYINT NOT NULL,
    seat UTINYINT NOT NULL,
    role VARCHAR NOT NULL,          -- declarer side | defender | klop
    card VARCHAR NOT NULL,
    legal BOOLEAN NOT NULL,
    value INTEGER NOT NULL,         -- after the card played, best play afterwards
    best_value INTEGER NOT NULL,
    best_cards VARCHAR[] NOT NULL,
    loss INTEGER NOT NULL,
    changed VARCHAR[] NOT NULL,     -- e.g. 'contract lost', 'trula for the defenders (best: ...)'
    card_values JSON NOT NULL       -- every legal card -> its value
);
