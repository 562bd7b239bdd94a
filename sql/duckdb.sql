-- The tables of cg-rows(1) in DuckDB.  Columns in cg-rows' order; costs
-- UBIGINT, unsigned 64 bits as in the profile (SUM gives a HUGEINT: no
-- overflow); labels is JSON, read with labels->>'host'.  Load a CSV of
-- cg-rows with COPY, its quoting as RFC 4180 has it, and an empty quoted
-- field ("") the empty string, not NULL:
--
--   duckdb prof.duckdb < share/cgprof/sql/duckdb.sql
--   cg-rows functions --label host=web1 *.cg > functions.csv
--   duckdb prof.duckdb "COPY functions FROM 'functions.csv'
--       (FORMAT csv, HEADER, QUOTE '\"', ESCAPE '\"', ALLOW_QUOTED_NULLS false,
--        MAX_LINE_SIZE 100000000)"
--
-- (MAX_LINE_SIZE: a deep stack's row is longer than the default 2 MB.)
-- DuckDB refuses text that is not UTF-8; cg-rows writes names as the
-- profile has them, always UTF-8, but the profile column holds the input's
-- path as given, which may not be.

CREATE TABLE IF NOT EXISTS functions (
    profile   VARCHAR NOT NULL, -- the input as cg-rows was given it
    labels    JSON NOT NULL,    -- object of the --label options
    event     VARCHAR NOT NULL, -- the event (Ir, Time_(10ns), ...)
    ob        VARCHAR NOT NULL, -- object
    fl        VARCHAR NOT NULL, -- file
    fn        VARCHAR NOT NULL, -- function
    called    UBIGINT NOT NULL, -- calls into it
    self      UBIGINT NOT NULL, -- its own cost, in the event's unit
    inclusive UBIGINT NOT NULL  -- its cost with its callees'
);

CREATE TABLE IF NOT EXISTS calls (
    profile   VARCHAR NOT NULL,
    labels    JSON NOT NULL,
    event     VARCHAR NOT NULL,
    ob        VARCHAR NOT NULL, -- the caller
    fl        VARCHAR NOT NULL,
    fn        VARCHAR NOT NULL,
    cob       VARCHAR NOT NULL, -- the callee
    cfl       VARCHAR NOT NULL,
    cfn       VARCHAR NOT NULL,
    calls     UBIGINT NOT NULL, -- calls made
    inclusive UBIGINT NOT NULL  -- their inclusive cost
);

-- string_split(stack, ';') gives a stack's frames.
CREATE TABLE IF NOT EXISTS stacks (
    profile   VARCHAR NOT NULL,
    labels    JSON NOT NULL,
    event     VARCHAR NOT NULL,
    stack     VARCHAR NOT NULL, -- frames from the root, ';' between them
    value     UBIGINT NOT NULL  -- the cost of the stack's last frame
);
