-- tarock-logs store, schema version 6: the ratings (tarock_logs/store/ratings.py) as facts of
-- the store, computed where an ingest finishes writing instead of on every view.
--
-- rating_games: one row per game the ratings were computed for, with the key of their inputs
-- (the files, and their sha256, that hold the game's sessions and hands) and the method
-- (ratings.METHOD and the openskill version); a game whose key changed is recomputed whole
-- (ratings are order-dependent). A store migrated from an older version has no row yet: its
-- readers recompute, as before, until the next ingest computes them.
-- rating_current / rating_history: RatingHistory.current and .history of each game, without
-- the player's name (read from players, which another game's file may change); seq is the
-- row's position in the game's history (sessions in playing order, seats in a session).

CREATE TABLE rating_games (
    game game_t PRIMARY KEY,
    inputs_key VARCHAR NOT NULL,
    method VARCHAR NOT NULL,
    computed_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE rating_current (
    game game_t NOT NULL,
    player_id VARCHAR NOT NULL,
    rating DOUBLE NOT NULL,         -- mu - 3 sigma
    mu DOUBLE NOT NULL,
    sigma DOUBLE NOT NULL,
    sessions BIGINT NOT NULL,
    rank BIGINT NOT NULL            -- within the game, 1 = best (equal ratings share it)
);

CREATE TABLE rating_history (
    game game_t NOT NULL,
    seq BIGINT NOT NULL,
    session_id VARCHAR NOT NULL,
    date DATE,
    "order" BIGINT NOT NULL,        -- the session's place in the game's playing order, from 1
    player_id VARCHAR NOT NULL,
    place BIGINT NOT NULL,
    rating DOUBLE NOT NULL,
    mu DOUBLE NOT NULL,
    sigma DOUBLE NOT NULL
);
