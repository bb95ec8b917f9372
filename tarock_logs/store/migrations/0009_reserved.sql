-- Placeholder on the `knew` branch only: number 9 is another engineer's migration, which
-- replaces this file when both branches are merged (the migrations must be numbered 1..n).
SELECT 1;
