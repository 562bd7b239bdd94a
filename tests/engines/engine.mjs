// engine.mjs duckdb|clickhouse - run a job in DuckDB (@duckdb/node-api) or
// in ClickHouse's engine in process (chdb), the packages found through
// NODE_PATH.  The job, JSON on standard input:
//   {"db": PATH, "ddl": FILE, "loads": [[TABLE, CSV], ...], "queries": [SQL, ...],
//    "from_file": false}
// creates the tables with the DDL file's statements, loads each CSV of
// cg-rows as the DDL's comments say (DuckDB: COPY ... FROM; ClickHouse:
// INSERT INTO TABLE FORMAT CSVWithNames and the CSV), runs the queries,
// and prints JSON: {"version", "load_ms", "results": [...]}, a result
// DuckDB's rows with every value as a string (or null), or ClickHouse's
// JSONCompactEachRow text as it is (its 64-bit numbers exact).
import { createRequire } from 'node:module';
import fs from 'node:fs';

const require = createRequire(import.meta.url);
const [, , engine] = process.argv;
const job = JSON.parse(fs.readFileSync(0, 'utf8'));

// The statements of a SQL file: split at the semicolons outside quotes
// and -- comments (splitByChar(';', stack) holds one).
function statements(sql) {
  const out = [];
  let cur = '', quote = null;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i];
    if (quote !== null) {
      cur += ch;
      if (ch === quote) quote = null;
    } else if (ch === '-' && sql[i + 1] === '-') {
      while (i < sql.length && sql[i] !== '\n') i++;
      cur += '\n';
    } else if (ch === ';') {
      if (cur.trim() !== '') out.push(cur);
      cur = '';
    } else {
      if (ch === "'" || ch === '"') quote = ch;
      cur += ch;
    }
  }
  if (cur.trim() !== '') out.push(cur);
  return out;
}

const ddl = statements(fs.readFileSync(job.ddl, 'utf8'));
const out = { version: '', load_ms: [], results: [] };

function cell(v) {
  if (v === null || v === undefined) return null;
  return typeof v === 'string' ? v : v.toString();
}

if (engine === 'duckdb') {
  const { DuckDBInstance } = require('@duckdb/node-api');
  const inst = await DuckDBInstance.create(job.db);
  const con = await inst.connect();
  const run = async sql => (await con.runAndReadAll(sql)).getRows();
  out.version = (await run('SELECT version()'))[0][0];
  for (const s of ddl) await con.run(s);
  for (const [table, csv] of job.loads) {
    const t0 = Date.now();
    await con.run(`COPY ${table} FROM '${csv.replaceAll("'", "''")}' (FORMAT csv, HEADER, ` +
                  `QUOTE '"', ESCAPE '"', ALLOW_QUOTED_NULLS false, MAX_LINE_SIZE 100000000)`);
    out.load_ms.push(Date.now() - t0);
  }
  for (const q of job.queries)
    out.results.push((await run(q)).map(row => row.map(cell)));
  con.closeSync();
} else if (engine === 'clickhouse') {
  const { Session } = require('chdb');
  const s = new Session(job.db);
  out.version = s.query('SELECT version()', 'TSVRaw').trim();
  for (const q of ddl) s.query(q);
  for (const [table, csv] of job.loads) {
    const t0 = Date.now();
    // (from_file: the same reader on the file itself, as the bench
    // does: a CSV of some hundred MB is no string for node)
    if (job.from_file)
      s.query(`INSERT INTO ${table} SELECT * FROM file('${csv.replaceAll("'", "\\'")}', CSVWithNames)`);
    else
      s.query(`INSERT INTO ${table} FORMAT CSVWithNames\n` + fs.readFileSync(csv, 'utf8'));
    out.load_ms.push(Date.now() - t0);
  }
  for (const q of job.queries)
    out.results.push(s.query(q, 'JSONCompactEachRow'));
  s.cleanup();
} else {
  console.error('usage: engine.mjs duckdb|clickhouse < JOB');
  process.exit(2);
}
process.stdout.write(JSON.stringify(out));
