-- tarock-logs store, schema version 1.
--
-- Raw facts (raw_logs, rejects, sessions, players, hands' deals, actions, irregularities) are
-- kept apart from derived verdicts (violations, tricks, score_items, hand_scores,
-- session_scores and the legal/won/contract columns of hands, which the rules engines derive).
-- Keys: hands are keyed by the audit's content hash (hand_id); every child table carries
-- hand_id and is replaced per hand (delete then insert), so only the small tables have
-- primary keys. Seats are 0-based indices into the session's players.

CREATE TYPE game_t AS ENUM ('slovenian', 'zwanzigerrufen', 'royal');
CREATE TYPE role_t AS ENUM ('declarer', 'partner', 'defender', 'klop', 'sitting_out', 'unknown');
CREATE TYPE severity_t AS ENUM ('error', 'warning');
CREATE TYPE action_t AS ENUM (
    'bid', 'pass', 'call', 'talon', 'discard', 'announce', 'kontra', 'lezim', 'play',
    'throw_in', 'claim', 'meld'
);

CREATE TABLE meta (
    key VARCHAR PRIMARY KEY,
    value VARCHAR
);

-- One row per ingested file: sha256 of its bytes tells a changed file from an unchanged one.
CREATE TABLE raw_logs (
    file VARCHAR PRIMARY KEY,
    sha256 VARCHAR NOT NULL,
    size BIGINT NOT NULL,
    n_sessions INTEGER NOT NULL,
    n_hands INTEGER NOT NULL,
    n_rejected INTEGER NOT NULL,
    ingested_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE sessions (
    session_id VARCHAR NOT NULL,
    game game_t NOT NULL,
    ruleset VARCHAR NOT NULL,
    table_size UTINYINT NOT NULL,
    event_name VARCHAR,
    tournament VARCHAR,
    round UTINYINT,
    table_name VARCHAR,
    site VARCHAR,
    date DATE,
    first_dealer UTINYINT,
    options JSON,
    source JSON,
    n_hands INTEGER NOT NULL,
    file VARCHAR NOT NULL,
    line INTEGER
);

CREATE TABLE players (
    player_id VARCHAR PRIMARY KEY,
    name VARCHAR
);

CREATE TABLE session_players (
    session_id VARCHAR NOT NULL,
    seat UTINYINT NOT NULL,
    player_id VARCHAR NOT NULL,
    pair VARCHAR,          -- Royal Tarock's fixed pair (A/B)
    role VARCHAR           -- Royal Tarock's role within the pair (abfaenger/eintreiber)
);

CREATE TABLE hands (
    hand_id VARCHAR NOT NULL,
    session_id VARCHAR NOT NULL,
    game game_t NOT NULL,
    ruleset VARCHAR,
    number INTEGER NOT NULL,
    dealer UTINYINT NOT NULL,
    table_size UTINYINT NOT NULL,
    contract VARCHAR,
    declarer UTINYINT,
    partner UTINYINT,
    won BOOLEAN,
    legal BOOLEAN,
    verified BOOLEAN NOT NULL,      -- false when the audit reported anything unverified
    n_actions INTEGER NOT NULL,
    n_violations INTEGER NOT NULL,
    n_discrepancies INTEGER NOT NULL,
    unverified VARCHAR[],
    deal JSON NOT NULL,
    result JSON,
    notes VARCHAR,
    file VARCHAR NOT NULL,
    line INTEGER
);

CREATE TABLE actions (
    hand_id VARCHAR NOT NULL,
    idx USMALLINT NOT NULL,
    seat UTINYINT NOT NULL,
    type action_t NOT NULL,
    card VARCHAR,
    cards VARCHAR[],
    shown VARCHAR[],
    contract VARCHAR,
    talon_group UTINYINT,
    bonus VARCHAR,
    side VARCHAR,
    target VARCHAR,
    level UTINYINT,
    claim VARCHAR,
    meld VARCHAR,
    raises VARCHAR,
    params JSON,
    note VARCHAR,
    legal BOOLEAN,
    violation_code VARCHAR
);

CREATE TABLE irregularities (
    hand_id VARCHAR NOT NULL,
    idx USMALLINT NOT NULL,
    type VARCHAR NOT NULL,        -- renons | misdeal | arbiter | penalty
    seat UTINYINT,                -- offender / misdealer / penalised seat
    called_by UTINYINT,
    kind VARCHAR,
    action_index INTEGER,
    trick INTEGER,
    upheld BOOLEAN,
    points INTEGER,
    unit VARCHAR,
    detail JSON
);

CREATE TABLE tricks (
    hand_id VARCHAR NOT NULL,
    trick_no USMALLINT NOT NULL,  -- 1-based
    leader UTINYINT,
    winner UTINYINT,
    seats UTINYINT[],
    cards VARCHAR[],
    points INTEGER
);

CREATE TABLE violations (
    hand_id VARCHAR NOT NULL,
    action_index INTEGER,
    seat UTINYINT,
    code VARCHAR NOT NULL,
    severity severity_t NOT NULL,
    message VARCHAR,
    rule VARCHAR,
    card VARCHAR
);

-- seat NULL: a line written by every member of the declarer's side.
CREATE TABLE score_items (
    hand_id VARCHAR NOT NULL,
    seat UTINYINT,
    item VARCHAR NOT NULL,
    recorded INTEGER,
    recomputed INTEGER,
    delta INTEGER                 -- recorded - recomputed (NULL when either is missing)
);

CREATE TABLE hand_scores (
    hand_id VARCHAR NOT NULL,
    seat UTINYINT NOT NULL,
    player_id VARCHAR NOT NULL,
    role role_t NOT NULL,
    recorded_total INTEGER,
    recomputed_total INTEGER,
    delta INTEGER,
    radelci_before SMALLINT,
    radelci_after SMALLINT
);

CREATE TABLE session_scores (
    session_id VARCHAR NOT NULL,
    seat UTINYINT NOT NULL,
    player_id VARCHAR NOT NULL,
    hands INTEGER NOT NULL,
    recorded_total BIGINT,        -- sum of the stored hands' recorded totals
    recomputed_total BIGINT,
    delta BIGINT,
    recorded_session_total BIGINT,  -- the session total as the scorer wrote it
    placement_points DOUBLE,      -- as recorded
    placement_points_recomputed DOUBLE
);

CREATE TABLE rejects (
    file VARCHAR NOT NULL,
    line INTEGER,
    session VARCHAR,
    hand INTEGER,
    hand_index INTEGER,
    raw VARCHAR,
    errors JSON NOT NULL,
    first_code VARCHAR,
    n_errors INTEGER NOT NULL,
    rejected_at TIMESTAMPTZ NOT NULL
);
