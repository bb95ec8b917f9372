-- tarock-logs store, schema version 11: facts per session, computed at ingest for each
-- session whose hands changed (tarock_logs/store/write/facts.py, refresh_sessions), so that
-- the statistics over sessions, pairs of players and matches are scans of a few narrow rows
-- per session instead of joins of every seat with every other seat of its hand.

-- Per session and player: the sums of the player's seat_facts in the session (the
-- statistics' score over time, and each player's own rates beside a pair's).
CREATE TABLE session_player_facts (
    session_key INTEGER NOT NULL,
    player_key INTEGER NOT NULL,
    game game_t NOT NULL,
    date DATE,
    hands INTEGER NOT NULL,
    score BIGINT,                 -- sum of the seats' scores (NULL: none known)
    scored INTEGER NOT NULL,      -- seats with a score
    decided INTEGER NOT NULL,     -- seats with a result (won not NULL)
    won INTEGER NOT NULL,
    game_decided INTEGER NOT NULL, -- the same with the per-game result (game_won)
    game_won INTEGER NOT NULL
);

-- Per session and two players a, b of a hand of it (see facts.py for the three kinds:
-- 0 on the same side, a's id before b's; 1 on the same side of a decided hand, per game;
-- 2 on opposite sides of a decided hand, per game; 1 and 2 in both orders): the hands, a's
-- decided and won hands, and the sums and counts of a's and b's scores in them.
CREATE TABLE pair_facts (
    session_key INTEGER NOT NULL,
    game game_t NOT NULL,
    date DATE,
    kind UTINYINT NOT NULL,
    key_a INTEGER NOT NULL,
    key_b INTEGER NOT NULL,
    hands INTEGER NOT NULL,
    decided INTEGER NOT NULL,
    won INTEGER NOT NULL,
    score_a BIGINT,
    scored_a INTEGER NOT NULL,
    score_b BIGINT,
    scored_b INTEGER NOT NULL
);

-- Per match (a session of a game of fixed pairs) and pair: the pair's players, games, the
-- sum of its game scores, the match result by the engine's rule and won / lost / drawn.
CREATE TABLE match_facts (
    session_key INTEGER NOT NULL,
    game game_t NOT NULL,
    date DATE,
    pair VARCHAR NOT NULL,
    player_keys INTEGER[] NOT NULL,
    games INTEGER NOT NULL,
    points BIGINT,
    match_points BIGINT,
    result VARCHAR NOT NULL
);
