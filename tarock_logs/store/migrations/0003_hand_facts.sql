-- tarock-logs store, schema version 3: log format 1.1 lets a hand be recorded as facts
-- without cards (a score-sheet line). Such a hand has no deal; its facts (contract, declarer,
-- partner, won, card points, bonuses, kontras, mondfang) are kept as raw facts beside the deal.
ALTER TABLE hands ADD COLUMN facts JSON;
ALTER TABLE hands ALTER COLUMN deal DROP NOT NULL;
