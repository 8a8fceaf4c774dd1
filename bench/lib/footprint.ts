/**
 * Static sections of docs/benchmarks.md that a run does not measure: where an idle server's memory goes
 * (issue 15, docs/decisions/028-idle-footprint-and-fan-out.md) and how the peers' figures were obtained.
 * Kept here so `npm run bench` and `--render` print them every time; re-measure them when the start-up
 * path or `npm start`'s node flags change.
 */
export const FOOTPRINT_BREAKDOWN: string[] = [
  '## Where an idle server’s memory goes',
  '',
  'Measured on 2026-11-25 on this machine kind (shared, so ±3 MiB): the compiled server (`npm run ' +
    'build:server`) started with an empty SQLite `DATA_DIR`, nothing connected, VmRSS 4 s after start, three ' +
    'starts each. “Alone” figures come from importing one package into a bare `node` and a full GC.',
  '',
  '| step | RSS idle | what changed |',
  '|---|---|---|',
  '| before (main at 5582703, `node --enable-source-maps`) | 123–130 MiB | — |',
  '| WAL checkpoint thread only while there are writes | −≈ 13 MiB | a worker thread is a V8 isolate plus ' +
    'its own better-sqlite3 connection (12.7 MiB measured alone); it now starts at the first write and ' +
    'retires after 10 s without one, after a last checkpoint |',
  '| `pg` and `nodemailer` loaded only when used | −≈ 9 MiB | `pg` (2.4 MiB of heap alone) only with ' +
    '`DATABASE_URL`, `nodemailer` (1.8 MiB) at the first email |',
  '| after both | 107–110 MiB | |',
  '| `npm start` with `--max-semi-space-size=4` | −≈ 14 MiB | start-up allocation grew the young generation to ' +
    '2 × 16 MiB semi-spaces that stayed committed; capped at 4 MiB each |',
  '| now | 92–94 MiB | target ≤ 64 MiB: **not met** |',
  '',
  'What the ≈ 93 MiB are now:',
  '',
  '| part | RSS | notes |',
  '|---|---|---|',
  '| `node` binary and shared libraries (file-backed pages) | ≈ 46 MiB | a bare `node` idles at 40 MiB, 34 MiB of ' +
    'it file-backed; the server touches more of the binary (crypto, zlib, ICU) |',
  '| V8 heap | ≈ 30 MiB committed, 19–21 MiB used | used: module sources kept as strings 6.7 MiB (the bundle ' +
    '0.7 MiB, zod’s sources ≈ 1 MiB), bytecode and code 5.4 MiB, arrays 3.2 MiB, object shapes 1.8 MiB, objects ' +
    'and closures 3 MiB (heap snapshot) |',
  '| malloc (SQLite page cache, better-sqlite3, libuv, OpenSSL) | ≈ 9 MiB | SQLite’s page cache fills only as ' +
    'pages are read (≤ 2 MiB by default) |',
  '| thread stacks (libuv pool, V8 platform threads) | ≈ 2 MiB | |',
  '',
  'Heap of the dependencies loaded at start, each imported alone: fastify 2.5 MiB, kysely 2.7 MiB, zod 2.9 MiB, ' +
    '@fastify/static 1.5 MiB, ws 1.0 MiB, jose 0.6 MiB, @fastify/multipart 0.6 MiB, pino 0.6 MiB, bowser 0.3 MiB. ' +
    'Caches bounded too: project list bodies ≤ 32 entries and ≤ 4 MiB (before: 32 entries of up to 1.1 MB each, ' +
    '≈ 35 MiB), single project bodies ≤ 2,000 entries and ≤ 2 MiB, sessions ≤ 10,000 entries (≈ 3 MiB).',
  '',
  'The remaining gap to 64 MiB is the heap of the code loaded at start: the levers left are loading route ' +
    'groups that an idle server does not need (storage, search, team, account, the OpenAPI route docs) at ' +
    'their first request, and fewer dependencies at start (e.g. @fastify/static only with a web build).',
];

export const PEERS_NOTE: string[] = [
  'The Parse Server 9.10 + LiveQuery (PostgreSQL) and PocketBase 0.22 (SQLite) columns are the figures of ' +
    'issue 15’s table: measured side by side with The Dojo on one machine of this kind, in one run, with the ' +
    'same workload (1,000 projects, 50 users, session-authenticated clients; the peer apps implemented the same ' +
    'dashboard API). They are quoted, not re-measured by `npm run bench`: neither peer can be downloaded on ' +
    'this machine (its network reaches only the npm and Debian package registries), so the columns stay as ' +
    'the issue recorded them. “—” means the peer was not measured on that line. Rows the issue’s table does ' +
    'not cover keep the earlier Parse 9 figures where there were any.',
];
