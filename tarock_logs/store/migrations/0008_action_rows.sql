-- tarock-logs store, schema version 8: the actions stored as two narrow tables.
--
-- Four actions in five are card plays, which have a seat, a type and a card and nothing
-- else; one wide table gave each of them a hand id and thirteen empty columns, and writing
-- those was most of what an ingest spent in DuckDB (measured on 2 cores, 2,000 hands: the
-- actions' insert and commit 116 ms wide, ≈ 50 ms as the two tables below).
--
-- * action_rows: every action, keyed by (hand_key, idx): seat, type, card, and the engine's
--   verdict (legal, violation_code);
-- * action_details: the other fields of the actions that have any (bids, calls, talon picks,
--   discards, announcements, kontras, claims, notes), keyed the same way.
--
-- The view `actions` gives back the columns of the table it replaces, in the same order
-- (hand_id from the action's hand), so queries over `actions` read the same rows as before.

CREATE TABLE action_rows (
    hand_key INTEGER NOT NULL,
    idx USMALLINT NOT NULL,
    seat UTINYINT NOT NULL,
    type action_t NOT NULL,
    card VARCHAR,
    legal BOOLEAN,
    violation_code VARCHAR
);

CREATE TABLE action_details (
    hand_key INTEGER NOT NULL,
    idx USMALLINT NOT NULL,
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
    note VARCHAR
);

INSERT INTO action_rows
SELECT hand_key, idx, seat, type, card, legal, violation_code FROM actions
WHERE hand_key IS NOT NULL ORDER BY hand_key, idx;

INSERT INTO action_details
SELECT hand_key, idx, cards, shown, contract, talon_group, bonus, side, target, level, claim,
       meld, raises, params, note
FROM actions
WHERE hand_key IS NOT NULL
  AND (cards IS NOT NULL OR shown IS NOT NULL OR contract IS NOT NULL
       OR talon_group IS NOT NULL OR bonus IS NOT NULL OR side IS NOT NULL
       OR target IS NOT NULL OR level IS NOT NULL OR claim IS NOT NULL OR meld IS NOT NULL
       OR raises IS NOT NULL OR params IS NOT NULL OR note IS NOT NULL)
ORDER BY hand_key, idx;

DROP TABLE actions;

CREATE VIEW actions AS
SELECT h.hand_id, r.idx, r.seat, r.type, r.card, d.cards, d.shown, d.contract, d.talon_group,
       d.bonus, d.side, d.target, d.level, d.claim, d.meld, d.raises, d.params, d.note,
       r.legal, r.violation_code, r.hand_key
FROM action_rows r
JOIN hands h ON h.hand_key = r.hand_key
LEFT JOIN action_details d ON d.hand_key = r.hand_key AND d.idx = r.idx;
