-- The tables of cg-rows(1) in ClickHouse.  Columns in cg-rows' order, so
-- that its CSV loads as it is (the MATERIALIZED columns are computed from
-- the others, never sent):
--
--   clickhouse-client --query 'CREATE DATABASE IF NOT EXISTS cgprof'
--   clickhouse-client --database cgprof --multiquery < share/cgprof/sql/clickhouse.sql
--   cg-rows stacks --label host=web1 *.cg |
--       clickhouse-client --query 'INSERT INTO cgprof.stacks FORMAT CSVWithNames'
--
-- Costs are UInt64, as in the profile; sum() of UInt64 is UInt64 and
-- wraps past 2^64, so a sum that may pass it is sum(toUInt128(self)).
-- The tables are ordered for the queries of cg-rows(1): a filter on the
-- event, then aggregation by function (or stack) in the table's order.
-- labels is the JSON text of the --label options, and label the same as a
-- Map: label['host'].  LowCardinality where few values repeat in many rows
-- (events, objects, files, label sets); functions and stacks are too many.

CREATE TABLE IF NOT EXISTS functions (
    profile   String,                 -- the input as cg-rows was given it
    labels    LowCardinality(String), -- JSON object of the --label options
    event     LowCardinality(String), -- the event (Ir, Time_(10ns), ...)
    ob        LowCardinality(String), -- object
    fl        LowCardinality(String), -- file
    fn        String,                 -- function
    called    UInt64,                 -- calls into it
    self      UInt64,                 -- its own cost, in the event's unit
    inclusive UInt64,                 -- its cost with its callees'
    label     Map(String, String) MATERIALIZED
              CAST(JSONExtractKeysAndValues(labels, 'String'), 'Map(String, String)')
) ENGINE = MergeTree
ORDER BY (event, fn, fl, ob, profile);

CREATE TABLE IF NOT EXISTS calls (
    profile   String,
    labels    LowCardinality(String),
    event     LowCardinality(String),
    ob        LowCardinality(String), -- the caller
    fl        LowCardinality(String),
    fn        String,
    cob       LowCardinality(String), -- the callee
    cfl       LowCardinality(String),
    cfn       String,
    calls     UInt64,                 -- calls made
    inclusive UInt64,                 -- their inclusive cost
    label     Map(String, String) MATERIALIZED
              CAST(JSONExtractKeysAndValues(labels, 'String'), 'Map(String, String)')
) ENGINE = MergeTree
ORDER BY (event, fn, cfn, fl, ob, cfl, cob, profile);

-- A stack's frames as an array (frames[1] the root, frames[-1] the leaf)
-- for arrayJoin, has() and the flame graphs ClickHouse draws itself.
CREATE TABLE IF NOT EXISTS stacks (
    profile   String,
    labels    LowCardinality(String),
    event     LowCardinality(String),
    stack     String,                 -- frames from the root, ';' between
    value     UInt64,                 -- the cost of the stack's last frame
    frames    Array(String) MATERIALIZED splitByChar(';', stack),
    label     Map(String, String) MATERIALIZED
              CAST(JSONExtractKeysAndValues(labels, 'String'), 'Map(String, String)')
) ENGINE = MergeTree
ORDER BY (event, stack, profile);

-- Past one machine: the tables above on every shard of a cluster (here
-- named profiles, in the servers' remote_servers) under the names
-- functions_local, calls_local and stacks_local, and a Distributed table
-- over each that inserts spread by profile (a profile's rows on one
-- shard) and queries read from every shard:
--
-- CREATE DATABASE IF NOT EXISTS cgprof ON CLUSTER profiles;
-- CREATE TABLE cgprof.stacks_local ON CLUSTER profiles (
--     profile String, labels LowCardinality(String),
--     event LowCardinality(String), stack String, value UInt64,
--     frames Array(String) MATERIALIZED splitByChar(';', stack),
--     label Map(String, String) MATERIALIZED
--           CAST(JSONExtractKeysAndValues(labels, 'String'), 'Map(String, String)')
-- ) ENGINE = MergeTree ORDER BY (event, stack, profile);
-- CREATE TABLE cgprof.stacks ON CLUSTER profiles AS cgprof.stacks_local
--     ENGINE = Distributed(profiles, cgprof, stacks_local, cityHash64(profile));
--
-- and the same of functions and calls.  With replicas, the local tables
-- are ReplicatedMergeTree('/clickhouse/tables/{shard}/cgprof/stacks',
-- '{replica}').
