-- The tables of cg-rows(1) in SQLite (3.37 or later: STRICT tables).
-- Columns in cg-rows' order, so that .import loads its CSV as it is:
--
--   sqlite3 prof.db < share/cgprof/sql/sqlite.sql
--   cg-rows functions --label host=web1 *.cg > functions.csv
--   sqlite3 prof.db '.import --csv --skip 1 functions.csv functions'
--
-- (--skip 1: the header row; .import reads every row of an existing table
-- as data.)  Costs are INTEGER, SQLite's only integer: signed 64 bits.  A
-- STRICT table refuses a figure past 9223372036854775807 instead of
-- keeping it approximated as a REAL (.import says so on standard error,
-- loads the other rows and exits 0: check what it says), and SUM() stops
-- with "integer overflow" past it; a profile with such figures is for DuckDB or
-- ClickHouse, whose costs are unsigned 64 bits.  labels is a JSON object
-- as text: json_extract(labels, '$.host').  For a large load, drop the
-- indexes first and create them again after.

CREATE TABLE IF NOT EXISTS functions (
    profile   TEXT NOT NULL,    -- the input as cg-rows was given it
    labels    TEXT NOT NULL,    -- JSON object of the --label options
    event     TEXT NOT NULL,    -- the event (Ir, Time_(10ns), ...)
    ob        TEXT NOT NULL,    -- object
    fl        TEXT NOT NULL,    -- file
    fn        TEXT NOT NULL,    -- function
    called    INTEGER NOT NULL, -- calls into it
    self      INTEGER NOT NULL, -- its own cost, in the event's unit
    inclusive INTEGER NOT NULL  -- its cost with its callees'
) STRICT;

CREATE TABLE IF NOT EXISTS calls (
    profile   TEXT NOT NULL,
    labels    TEXT NOT NULL,
    event     TEXT NOT NULL,
    ob        TEXT NOT NULL,    -- the caller
    fl        TEXT NOT NULL,
    fn        TEXT NOT NULL,
    cob       TEXT NOT NULL,    -- the callee
    cfl       TEXT NOT NULL,
    cfn       TEXT NOT NULL,
    calls     INTEGER NOT NULL, -- calls made
    inclusive INTEGER NOT NULL  -- their inclusive cost
) STRICT;

CREATE TABLE IF NOT EXISTS stacks (
    profile   TEXT NOT NULL,
    labels    TEXT NOT NULL,
    event     TEXT NOT NULL,
    stack     TEXT NOT NULL,    -- frames from the root, ';' between them
    value     INTEGER NOT NULL  -- the cost of the stack's last frame
) STRICT;

-- The queries of cg-rows(1): a function's figures over the profiles, a
-- function's callers and callees, the stacks of one event.
CREATE INDEX IF NOT EXISTS functions_by_fn ON functions (event, fn, fl, ob);
CREATE INDEX IF NOT EXISTS calls_by_fn ON calls (event, fn, fl, ob);
CREATE INDEX IF NOT EXISTS calls_by_cfn ON calls (event, cfn, cfl, cob);
CREATE INDEX IF NOT EXISTS stacks_by_event ON stacks (event, profile);
