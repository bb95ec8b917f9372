-- Per-card analysis on what the player knew (tarock ingest --analyse --analyse-view player;
-- docs/analysis.md), beside the all-cards-visible rows of 0005. Derived like them: replaced
-- per hand (delete then insert), keyed by hand_id. For each legal card played the hidden cards
-- were sampled among the layouts consistent with the player's view, each sample solved with
-- all cards visible: values are means over the samples, in points for the declarer side
-- (klop: for the player himself); loss is the best mean less the card's mean for the player's
-- side; mistake: loss at least the threshold.

CREATE TABLE analysed_hands_player (
    hand_id VARCHAR NOT NULL,
    last_tricks UTINYINT NOT NULL,
    samples USMALLINT NOT NULL,     -- layouts sampled per card
    seed BIGINT NOT NULL,           -- the seed of the samples (each card's own seed derives from it)
    threshold DOUBLE NOT NULL,      -- points below the best mean that make a mistake
    backend VARCHAR NOT NULL,       -- native | python | none
    cards USMALLINT NOT NULL,
    undecided USMALLINT NOT NULL,
    skipped VARCHAR,
    seconds DOUBLE,
    analysed_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE card_analysis_player (
    hand_id VARCHAR NOT NULL,
    action_index USMALLINT NOT NULL,
    trick UTINYINT NOT NULL,
    tricks_left UTINYINT NOT NULL,
    seat UTINYINT NOT NULL,
    role VARCHAR NOT NULL,
    card VARCHAR NOT NULL,
    value DOUBLE NOT NULL,          -- the card's mean value over the samples
    best_value DOUBLE NOT NULL,     -- the best mean
    best_cards VARCHAR[] NOT NULL,
    loss DOUBLE NOT NULL,
    mistake BOOLEAN NOT NULL,
    samples USMALLINT NOT NULL,
    seed VARCHAR NOT NULL,          -- the card's seed (random.Random)
    card_values JSON NOT NULL       -- every legal card -> {mean, std, min, max}
);
