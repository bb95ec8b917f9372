-- tarock-logs store, schema version 2: the findings model and the verification states
-- (docs/audit.md, "The fields of a finding" and "Verification states").
--
-- findings: every finding of a hand (level action or hand), replaced with its hand.
-- session_findings / tournament_findings: the session- and tournament-level findings
-- (session totals, placement points, standings), replaced with their session and
-- recomputed for a whole tournament at the end of each ingest (placement points depend on
-- every table of the round). players holds the finding's players as JSON
-- ([{"id", "name", "seat", "role", "dealer"}]); player_ids and seats the same for filtering.
-- verification: verified | partial | unverified, and hands.n_errors (NULL on rows stored
-- before this version).

CREATE TABLE findings (
    hand_id VARCHAR NOT NULL,
    level VARCHAR NOT NULL,        -- action | hand
    action_index INTEGER,
    code VARCHAR NOT NULL,
    severity VARCHAR NOT NULL,     -- error | warning | info
    message VARCHAR NOT NULL,
    player_ids VARCHAR[],
    seats UTINYINT[],
    players JSON,
    rule VARCHAR,
    rule_text JSON,
    consequence VARCHAR,
    item VARCHAR,
    recorded DOUBLE,
    recomputed DOUBLE,
    card VARCHAR
);

CREATE TABLE session_findings (
    session_id VARCHAR NOT NULL,
    file VARCHAR NOT NULL,
    tournament VARCHAR,
    code VARCHAR NOT NULL,
    severity VARCHAR NOT NULL,
    message VARCHAR NOT NULL,
    player_ids VARCHAR[],
    seats UTINYINT[],
    players JSON,
    rule VARCHAR,
    consequence VARCHAR,
    item VARCHAR,
    recorded DOUBLE,
    recomputed DOUBLE
);

CREATE TABLE tournament_findings (
    tournament VARCHAR NOT NULL,
    code VARCHAR NOT NULL,
    severity VARCHAR NOT NULL,
    message VARCHAR NOT NULL,
    player_ids VARCHAR[],
    players JSON,
    rule VARCHAR,
    consequence VARCHAR,
    item VARCHAR,
    recorded DOUBLE,
    recomputed DOUBLE
);

CREATE TABLE tournaments (
    tournament VARCHAR PRIMARY KEY,
    game VARCHAR,
    ruleset VARCHAR,
    n_sessions INTEGER NOT NULL,
    verification VARCHAR NOT NULL,
    unverified VARCHAR[],
    sessions_key VARCHAR NOT NULL  -- its sessions and their files' sha256: changed -> refreshed
);

ALTER TABLE hands ADD COLUMN verification VARCHAR;
-- violations of severity error only (n_violations counts warnings too): the illegal actions
ALTER TABLE hands ADD COLUMN n_errors INTEGER;
ALTER TABLE sessions ADD COLUMN verification VARCHAR;
