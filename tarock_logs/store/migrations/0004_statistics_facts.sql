-- tarock-logs store, schema version 4: facts computed at ingest, integer surrogate keys, the
-- byte span of each session in its file.
--
-- Every hand gets an integer hand_key (assigned by the writer in insert order) that its child
-- rows carry too, so one hand's rows are found by the zone maps of a few row groups instead of
-- a scan of 64-character ids; players get a player_key. seat_facts holds one row per seat of a
-- stored hand with everything the statistics count (tarock_logs/store/facts.py defines each
-- column from the raw tables, as tarock_logs/store/stats.py's docstring does in words);
-- bonus_facts and kontra_facts one row per announcement and kontra, schlemm_facts per Royal
-- Tarock Schlemm; player_summary the
-- per-player, per-role totals over seat_facts, kept up to date for the players an ingest
-- touched. Existing rows get their keys here; the writer builds the facts of a store that has
-- hands but no facts yet (a store migrated from an older version) before its first load.

ALTER TABLE hands ADD COLUMN hand_key INTEGER;
ALTER TABLE actions ADD COLUMN hand_key INTEGER;
ALTER TABLE irregularities ADD COLUMN hand_key INTEGER;
ALTER TABLE tricks ADD COLUMN hand_key INTEGER;
ALTER TABLE violations ADD COLUMN hand_key INTEGER;
ALTER TABLE findings ADD COLUMN hand_key INTEGER;
ALTER TABLE score_items ADD COLUMN hand_key INTEGER;
ALTER TABLE hand_scores ADD COLUMN hand_key INTEGER;
ALTER TABLE players ADD COLUMN player_key INTEGER;
ALTER TABLE sessions ADD COLUMN session_key INTEGER;
-- where the session's record is in its file (plain .jsonl only; NULL otherwise)
ALTER TABLE sessions ADD COLUMN byte_start BIGINT;
ALTER TABLE sessions ADD COLUMN byte_length INTEGER;

UPDATE hands SET hand_key = k.key
FROM (SELECT hand_id, CAST(row_number() OVER (ORDER BY file, line, number, hand_id) AS INTEGER)
             AS key FROM hands) k
WHERE hands.hand_id = k.hand_id;
UPDATE actions SET hand_key = h.hand_key FROM hands h WHERE actions.hand_id = h.hand_id;
UPDATE irregularities SET hand_key = h.hand_key FROM hands h
WHERE irregularities.hand_id = h.hand_id;
UPDATE tricks SET hand_key = h.hand_key FROM hands h WHERE tricks.hand_id = h.hand_id;
UPDATE violations SET hand_key = h.hand_key FROM hands h WHERE violations.hand_id = h.hand_id;
UPDATE findings SET hand_key = h.hand_key FROM hands h WHERE findings.hand_id = h.hand_id;
UPDATE score_items SET hand_key = h.hand_key FROM hands h WHERE score_items.hand_id = h.hand_id;
UPDATE hand_scores SET hand_key = h.hand_key FROM hands h WHERE hand_scores.hand_id = h.hand_id;
UPDATE players SET player_key = k.key
FROM (SELECT player_id, CAST(row_number() OVER (ORDER BY player_id) AS INTEGER) AS key
      FROM players) k
WHERE players.player_id = k.player_id;
UPDATE sessions SET session_key = k.key
FROM (SELECT session_id, CAST(row_number() OVER (ORDER BY session_id) AS INTEGER) AS key
      FROM sessions) k
WHERE sessions.session_id = k.session_id;

-- One row per seat of a stored hand (see tarock_logs/store/facts.py).
CREATE TABLE seat_facts (
    hand_key INTEGER NOT NULL,
    seat UTINYINT NOT NULL,
    player_key INTEGER NOT NULL,
    session_key INTEGER NOT NULL,
    game game_t NOT NULL,
    date DATE,
    number INTEGER NOT NULL,
    role role_t NOT NULL,
    contract VARCHAR,
    pair VARCHAR,                 -- Royal Tarock's fixed pair of the seat
    declarer_won BOOLEAN,
    won BOOLEAN,                  -- the seat's side won (NULL: klop, sitting out, undecided)
    score INTEGER,                -- recorded total, else recomputed
    radelci_earned SMALLINT NOT NULL,
    radelci_cleared SMALLINT NOT NULL,
    contracts_bid UTINYINT NOT NULL,      -- 1 when the seat bid a contract other than klop
    bonuses_announced USMALLINT NOT NULL,
    bonuses_made USMALLINT NOT NULL,
    kontras_given USMALLINT NOT NULL,
    kontras_successful USMALLINT NOT NULL,
    monds_lost UTINYINT NOT NULL,
    monds_captured UTINYINT NOT NULL,
    renons UTINYINT NOT NULL,
    tricks_won UTINYINT NOT NULL,
    -- the per-game tables (store/stats.py, "per game"): a thrown-in deal, the seat's role
    -- with Royal Tarock's attacker/defender (the dealer's pair defends) and the side's
    -- result with Royal Tarock's hands decided pair against pair (NULL when thrown in)
    thrown_in BOOLEAN NOT NULL,
    game_role VARCHAR NOT NULL,
    game_won BOOLEAN
);

-- One row per announcement of a bonus (made: NULL when no score item decides it).
CREATE TABLE bonus_facts (
    hand_key INTEGER NOT NULL,
    seat UTINYINT NOT NULL,
    bonus VARCHAR NOT NULL,
    made BOOLEAN
);

-- One row per kontra (success: NULL when no score item decides it).
CREATE TABLE kontra_facts (
    hand_key INTEGER NOT NULL,
    seat UTINYINT NOT NULL,
    target VARCHAR NOT NULL,
    level UTINYINT NOT NULL,
    success BOOLEAN,
    game_success BOOLEAN      -- Royal Tarock: the doubled Schlemm failed; else = success
);

-- Royal Tarock: one row per announced Schlemm (S_… or F_SPIEL) with its outcome for the
-- announcer: made, failed, raised (a partner's Hebung replaced it) or unknown.
CREATE TABLE schlemm_facts (
    hand_key INTEGER NOT NULL,
    seat UTINYINT NOT NULL,
    bonus VARCHAR NOT NULL,
    outcome VARCHAR NOT NULL
);

-- Per player and role: the totals of seat_facts (the Players page without filters).
CREATE TABLE player_summary (
    player_key INTEGER NOT NULL,
    role role_t NOT NULL,
    hands BIGINT NOT NULL,
    decided BIGINT NOT NULL,
    won BIGINT NOT NULL,
    total_score BIGINT,
    score_count BIGINT NOT NULL,
    contracts_bid BIGINT NOT NULL,
    bonuses_announced BIGINT NOT NULL,
    bonuses_made BIGINT NOT NULL,
    kontras_given BIGINT NOT NULL,
    kontras_successful BIGINT NOT NULL,
    monds_lost BIGINT NOT NULL,
    monds_captured BIGINT NOT NULL,
    radelci_earned BIGINT NOT NULL,
    radelci_cleared BIGINT NOT NULL,
    renons BIGINT NOT NULL,
    tricks_won BIGINT NOT NULL
);
