-- tarock-logs store, schema version 12: the player of each announcement and kontra.
--
-- bonus_facts and kontra_facts get the player_key of the seat that announced or gave them
-- (tarock_logs/store/write/facts.py writes it at ingest, from the same seats as seat_facts),
-- so the statistics' bonuses and kontras sections group them by player without joining
-- every row to its seat in seat_facts. The rows already stored get theirs from seat_facts.

ALTER TABLE bonus_facts ADD COLUMN player_key INTEGER;
ALTER TABLE kontra_facts ADD COLUMN player_key INTEGER;

UPDATE bonus_facts SET player_key = sf.player_key FROM seat_facts sf
WHERE sf.hand_key = bonus_facts.hand_key AND sf.seat = bonus_facts.seat;
UPDATE kontra_facts SET player_key = sf.player_key FROM seat_facts sf
WHERE sf.hand_key = kontra_facts.hand_key AND sf.seat = kontra_facts.seat;
