-- tarock-logs store, schema version 7: violations.severity takes 'info' as well.
--
-- The engines report three severities (tarock_logs.rules.base.Severity: error, warning,
-- info); Zwanzigerrufen's auction writes info lines (an overcall voids the announcements so
-- far, C7; an Absolut or Valat dagegen implies a Kontra, N5). Schema version 1 declared the
-- enum with two values, so a hand with an info line could not be stored. DuckDB cannot add a
-- value to an enum in place: a new type replaces the column's type; stored values keep their
-- meaning (a cast by label).

CREATE TYPE severity3_t AS ENUM ('error', 'warning', 'info');
ALTER TABLE violations ALTER COLUMN severity SET DATA TYPE severity3_t;
DROP TYPE severity_t;
