-- Before the first trick: the par of the talon exchange, all cards visible (tarock ingest
-- --analyse --analyse-par; docs/analysis.md, "Before the first trick (par)"). Derived like
-- card_analysis: replaced per hand (delete then insert), keyed by hand_id.
-- A discard's value is the whole hand's value from its first card with the recorded
-- announcements and kontras; a talon group's is the best of its discards; a contract's the best
-- of its lines (king, group, discard), nothing announced. Values are points of the score sheet
-- for the declarer side. A search the budget stopped is never a number: value is NULL and
-- low/high hold the bound the decided ones give (both NULL: undecided).

CREATE TABLE par_hands (
    hand_id VARCHAR NOT NULL,
    contract VARCHAR,
    declarer UTINYINT,
    backend VARCHAR NOT NULL,       -- native | python | none
    budget BIGINT NOT NULL,         -- cards one search may play (0: no limit)
    hand_budget BIGINT NOT NULL,    -- cards the hand's par searches may play (0: no limit)
    budget_hit BOOLEAN NOT NULL,    -- a budget left an option undecided or bounded
    nodes BIGINT NOT NULL,          -- cards the searches played
    skipped VARCHAR,                -- why the hand has no par (no talon exchange, ...)
    seconds DOUBLE,
    analysed_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE par_options (
    hand_id VARCHAR NOT NULL,
    kind VARCHAR NOT NULL,          -- group | discard | contract
    talon_group TINYINT NOT NULL,   -- the group (a discard: the group it follows; a contract:
                                    -- its best decided line's; -1: none)
    cards VARCHAR[] NOT NULL,       -- the group's cards, the discard (its class's first)
    contract VARCHAR,               -- a contract: its code
    king VARCHAR,                   -- a contract: the king of its best decided line
    value INTEGER,                  -- NULL: not decided within the budget
    low INTEGER,
    high INTEGER,
    recorded BOOLEAN NOT NULL,      -- the declarer's own choice
    equivalent JSON NOT NULL,       -- a discard: every discard of its class, valued once
    lines USMALLINT NOT NULL,       -- a group: its discard classes; a contract: its lines
    decided USMALLINT NOT NULL,     -- of those, decided within the budget
    nodes BIGINT NOT NULL
);
