-- tarock-logs store, schema version 9: each hand's step timeline, what the replay page reads
-- instead of replaying the hand (issue 32, "the store as the replayer's truth";
-- tarock_logs/store/timeline.py builds the steps from these rows and the ones stored before).
--
-- The position after an action is mostly the record itself (the cards dealt, taken, laid
-- away and played) and rows already stored (the tricks with their winners and points, the
-- findings at their action, the radelci carried in: hand_scores.radelci_before). What only
-- the rules engine knows is stored here, compactly (no view per step):
--
-- * action_rows.to_move: the seat to move after the action (NULL: nobody, the hand is over);
-- * action_rows.phase: the engine's phase after the action, where the engine's reference
--   replay said it (NULL: the phase of the next action, by the engine's action_phases; the
--   end after the last action);
-- * step_states: sparse, one row per key and step where a state the page shows changes
--   (contract, declarer, partner and the keys a game's engine declares,
--   GameEngine.timeline_keys; the cards the rules allowed at an illegal card): the step
--   (0: the deal, k: after action k - 1) and the value as JSON;
-- * hands.timeline: how the hand's timeline was stored: 1 the reference replay's record
--   (every value above said by the engine), 2 a clean record (every action legal and made by
--   the seat to move, as the engine's bulk path or the ingest lane proved it: to_move is the
--   next action's seat, and contract, declarer and partner are the hand's from the step the
--   bidding ends or the first call), NULL a hand stored before this version (the page then
--   replays it with the engine, as before).
--
-- * findings.params: the facts of a finding the engine words it with (the cards held at an
--   illegal card, a renons settlement: the finding's params, JSON), so the page words a
--   stored finding as the audit did, without the engine;
-- * hands.card_points: the hand's card points as the engine's score counts them (JSON, the
--   score's card_points: the end-of-hand panel), where the careful path's engine scored the
--   hand (NULL for a hand the ingest lane took: its native score keeps none).
--
-- Rows stored before this version keep NULLs; a new ingest of their file fills them.

ALTER TABLE action_rows ADD COLUMN to_move UTINYINT;
ALTER TABLE action_rows ADD COLUMN phase VARCHAR;
ALTER TABLE hands ADD COLUMN timeline UTINYINT;
ALTER TABLE hands ADD COLUMN card_points JSON;
ALTER TABLE findings ADD COLUMN params JSON;

CREATE TABLE step_states (
    hand_key INTEGER NOT NULL,
    step USMALLINT NOT NULL,
    key VARCHAR NOT NULL,
    value JSON
);
