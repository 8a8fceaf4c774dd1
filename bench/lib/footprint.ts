/**
 * Static sections of docs/benchmarks.md that a run does not measure: where an idle server's memory goes
 * (issue 15, docs/decisions/028-idle-footprint-and-fan-out.md and 030-idle-footprint-cuts.md) and how the peers' figures were obtained.
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
  'Second round, 2026-11-26 (docs/decisions/030-idle-footprint-cuts.md), same machine kind, measured another ' +
    'way: the server as `npm start` runs it, empty SQLite `DATA_DIR`, VmRSS / RssAnon / RssFile from ' +
    '`/proc/PID/status` 4 s after its health check answered, no GC asked for, three starts each (the three ' +
    'agree within 1 MiB unless a range is shown).',
  '',
  '| step | RSS idle | what changed |',
  '|---|---|---|',
  '| before (main at df9fe31) | 108–114 MiB (file 52, anon 56–62) | — |',
  '| the notification day and hour in UTC without Intl | −≈ 5 MiB (file 52 → 47) | the due-reminder tick at ' +
    'start formatted the date with `Intl.DateTimeFormat` and a time zone, which pages in ICU’s data from the ' +
    '`node` binary; UTC, the default zone, is now computed with `Date`, other zones still use Intl |',
  '| dependencies bundled into `dist/server/main.mjs`, source map not loaded at start | 103–110 → 85 MiB ' +
    '(anon 38) | every package was a module of its own whose source text V8 keeps; one bundle, whitespace- ' +
    'and syntax-minified (names kept for stack traces) is 1.9 MB. Loading its source map (`--enable-source-' +
    'maps`) costs 18 MiB (101 against 83 MiB now; 6 MiB for a map without the sources’ text); the map is still written for ' +
    'debugging. Fully minified names measured 90–91 MiB, not less |',
  '| the OpenAPI document built at its first request | −≈ 2 MiB (83 MiB, anon 36) | it converted every ' +
    'route’s zod schemas to JSON Schema at start |',
  '| now | 83 MiB | target ≤ 64 MiB: **not met** |',
  '',
  'Measured and not taken: registering no storage, search, team, account or notification routes at all ' +
    '(the upper bound of loading them at their first request) 85 → 85 MiB, since their services and ' +
    'dependencies load anyway; `--single-threaded` −1 MiB and `MALLOC_ARENA_MAX=2` −1 MiB on the bundled ' +
    'server (−8 and −3 MiB before it); `--max-semi-space-size=2` 79–83 MiB and `=1` 77 MiB (−6 MiB); with 1 MiB, ' +
    'two smoke runs of the create line (`--quick`, alternating with 4 MiB on the shared machine) gave ' +
    'p99 48 and 39 ms against 8.0 and 16.8 ms (budget 10 ms), so `npm start` keeps 4.',
  '',
  'What the ≈ 83 MiB are now (smaps per mapping, heap snapshot after a full GC):',
  '',
  '| part | RSS | notes |',
  '|---|---|---|',
  '| `/usr/bin/node` pages | ≈ 43 MiB | a bare `node` touches 31 MiB; the server ≈ 5 MiB more of `.text` ' +
    '(code it runs) and ≈ 5.5 MiB more of `.rodata` |',
  '| other files (better-sqlite3’s addon 2 MiB, libstdc++, libc) | ≈ 5 MiB | |',
  '| V8 heap | ≈ 30 MiB committed, 18 MiB used | used: bytecode and code 5.9 MiB, strings 4 MiB (the ' +
    'bundle’s source 2.6 MiB of it), arrays 2.4 MiB, object shapes 2.1 MiB, closures 1.5 MiB, objects ' +
    '1.5 MiB; committed includes the 2 × 4 MiB semi-spaces |',
  '| malloc `[heap]` (SQLite, better-sqlite3, libuv, OpenSSL) | ≈ 6 MiB | |',
  '',
  'Served (10,000 projects listed once after 1,000 signups, the memory bench’s method run alone twice): ' +
    '111.5 and 112.1 MiB. Of the ≈ 29 MiB over idle, ≈ 23 MiB is malloc, mostly SQLite’s page cache: ' +
    'better-sqlite3 builds SQLite with 16 MiB per connection (`cache_size = -16000`; SQLite’s default is ' +
    '2 MiB). Later the same day (docs/decisions/030-idle-footprint-cuts.md, second addendum) the full run read ' +
    '133 MiB: 21 of the main malloc arena’s 40 MiB were free chunks, 17 MiB of them freed list bodies held ' +
    'in the middle of the heap by the page cache and the cached bodies allocated after them. The app’s page ' +
    'cache is now 4 MiB (the uncached 1,000-project list showed no cost against 16 MiB; 2 MiB looked slower), ' +
    'and after 10 s without a request the server drops its cached bodies and the page cache ' +
    '(`PRAGMA shrink_memory`): 124.8–125.7 MiB against 131.8–132.1 before, one session. 10,000 idle ' +
    'dashboard tabs, same method: 145.2 and 144.0 MiB (6.3–6.4 KiB per tab).',
  '',
  'Per idle dashboard socket (heap snapshots at 100 and 2,100 sockets): 4.6 KB of JS heap, spread over ' +
    'node’s `net.Socket` (336 B), ws’s `WebSocket`, `Receiver` and `Sender` (592 B), their stream states ' +
    '(296 B), two `Timeout`s (240 B: the session-expiry timer is one), the connection and ' +
    'subscription objects and their closures and bound listeners (≈ 1.5 KB). The rest of the ≈ 6 KiB per ' +
    'socket is native (the TCP handle, malloc).',
  '',
  'Heap of the dependencies loaded at start, each imported alone: fastify 2.5 MiB, kysely 2.7 MiB, zod 2.9 MiB, ' +
    '@fastify/static 1.5 MiB, ws 1.0 MiB, jose 0.6 MiB, @fastify/multipart 0.6 MiB, pino 0.6 MiB, bowser 0.3 MiB. ' +
    'Caches bounded too: project list bodies ≤ 32 entries and ≤ 4 MiB (before: 32 entries of up to 1.1 MB each, ' +
    '≈ 35 MiB), single project bodies ≤ 2,000 entries and ≤ 2 MiB, sessions ≤ 10,000 entries (≈ 3 MiB).',
  '',
  'Third round, 2026-11-26 (docs/decisions/035-heap-after-bursts.md, 036-malloc-trim.md): what a burst leaves.',
  '',
  '| step | effect | what changed |',
  '|---|---|---|',
  '| one timer for every live socket’s deadline; node’s cleared idle timer dropped on upgrade | −4.7 MiB of ' +
    'JS heap at 10,000 sockets (58.4 → 53.8 MiB) | a `Timeout`, closure and context per socket for its ' +
    'session expiry, and the HTTP idle timer `ws` turns off but node keeps (that drop was removed again by ' +
    'decision 059) |',
  '| the quiet release compacts the heap once | old space back to what is in use (a burst left 66 MiB ' +
    'committed for 50 MiB of objects) | V8’s own full GCs leave pages three quarters full; compacting on ' +
    'every full GC instead cost the 10,000-tab fan-out p99 (290 against 247 ms) |',
  '| the quiet release trims the C allocator (`native/memory.c`, `malloc_trim`) | served line 114.7 → 90.8 MiB ' +
    '(memory bench, shared machine) | glibc kept ≈ 20 MiB of freed chunks in the middle of its heaps; a ' +
    '`malloc_trim` through gdb afterwards found nothing more to give back |',
  '',
  'Measured and not taken: `--optimize-for-size` (idle 75.4 MiB, 10,000 sockets 127.1 MiB) implies 1 MiB ' +
    'semi-spaces, whose cost on the create line decision 030 measured; V8’s memory reducer never ran in 40 s ' +
    'of idle sockets.',
  '',
  'Fourth round, 2026-11-26 (docs/decisions/037-idle-readings.md): every idle reading is now taken the way ' +
    'the served line always was, 12 s after the last request or new socket, past the quiet release, then a ' +
    'full GC. Start-up counts as a burst, so a server nobody uses releases once 10 s after it started. ' +
    'Socket upgrades count as activity, so no release comes while 10,000 tabs open. Readings 2 s after ' +
    'start caught start-up’s garbage, and the 10,000-tab reading caught the heap at its peak or just after ' +
    'the release, depending on how fast the sockets opened. That is why it read 136–161 MiB for the same code.',
  '',
  '| reading | before (2 s after) | now (after the quiet release) |',
  '|---|---|---|',
  '| idle, memory bench | 83 MiB | 72.5 MiB |',
  '| 10,000 idle sockets, memory bench | 142 MiB | 123.9 MiB |',
  '| 10,000 idle tabs, fan-out bench | 160–161 MiB | 122.4 MiB |',
  '',
  'What the idle server holds after its release (`npm start`’s bundle, `/proc/PID/smaps` per mapping, ' +
    '`/proc/PID/pagemap` against the sections of `/usr/bin/node`, V8’s heap spaces):',
  '',
  '| part | RSS | notes |',
  '|---|---|---|',
  '| `/usr/bin/node` pages | 42 MiB | `.text` 21.6 MiB (a bare `node` 14.1: code the server ran, V8’s ' +
    'compilers among it), `.rodata` 9.0 MiB (bare 5.9; ICU’s data 1.6 of it), symbol and string tables ' +
    '≈ 9 MiB as in a bare `node` |',
  '| V8 heap | ≈ 20 MiB | old space 15.5 MiB committed for 15.1 used, large objects 2.5 (the bundle’s ' +
    'source text), code 1.0, young generation 1.0 (the release’s GC shrinks it from 2 × 4 MiB) |',
  '| other anonymous memory | ≈ 6 MiB | thread stacks and per-thread malloc arenas (libuv’s pool, V8’s ' +
    'workers) |',
  '| malloc `[heap]` | ≈ 5 MiB | SQLite, better-sqlite3, OpenSSL, libuv |',
  '| other files | ≈ 5 MiB | better-sqlite3’s addon 1.9 MiB, libstdc++, libc, libm |',
  '',
  'Measured and not taken this round:',
  "- V8’s “last resort” collection (`gc({ flavor: 'last-resort' })`, what a low-memory notification " +
    'runs) instead of the compacting one: 77.9 against 77.6 MiB.',
  '- Flushing every function’s bytecode once at the release (`--stress-flush-code` for that collection): ' +
    '−1.5 MiB, paid back by compiling every function again at the next request.',
  '- Paging the `node` binary’s clean pages out at the release (`madvise(MADV_PAGEOUT)`, tried through ' +
    'gdb): 76.4 → 64.8 MiB. The kernel already reclaims clean file pages by itself when memory runs short. ' +
    'Doing it every quiet period would only move the figure. The first request after each quiet period ' +
    'would then fault the code back in, from the disk if the page cache let it go.',
  '',
  'The gap to 64 MiB that was left then: the server’s own code in V8 and the part of `node` it runs.',
  '',
  'Fifth round, 2026-11-26 (docs/decisions/039-no-driver-at-start.md): what loaded at start and was not ' +
    'used. `process.moduleLoadList`, a heap snapshot and `--trace-opt` of the idle server showed the ' +
    'PostgreSQL driver (a static import through the backup module), node’s fetch implementation (loaded ' +
    'because the driver touches `Response`), and V8’s optimizing compiler (TurboFan) compiling the ' +
    'router’s insert and node’s path functions at start. An idle server kept TurboFan’s code pages and the ' +
    'optimized code. The memory section run alone after each step, same day:',
  '',
  '| step | idle RSS |',
  '|---|---|',
  '| fourth round (no web app served by the bench’s server) | 72.5 MiB |',
  '| `pg` on first use (`loadPg`) | 69.2, 69.1 MiB |',
  '| the bench’s server serves the web build, as `npm start`’s does, through one wildcard route | 69.1, 69.4 MiB |',
  '| better-sqlite3 bundled, its addon opened by path (no `bindings` search, no TurboFan at start) | 64.8, 65.1 MiB |',
  '| node’s `tls`, `https`, `http2`, `zlib` on first use | 64.5, 64.5 MiB |',
  '| no JSON-schema compilers in Fastify (no Ajv), `glob` on first use | 63.3, 63.2, 63.4 MiB |',
  '',
  'Per-file static routes (two per file of the web build, 111 files) cost ≈ 6 MiB in `npm start`’s bundle ' +
    '(74.5 → 68.4 MiB, 25 s after start, no GC asked for): enough router inserts at start to bring in ' +
    'TurboFan. The bench’s servers served no web app before this round, so its readings never showed them. ' +
    'Not taken: minifying identifiers (−0.9 MiB of source text in the heap, at the cost of minified names ' +
    'in production stack traces), `--max-opt=2` (−4 MiB idle, a slower busy server), `--v8-pool-size=2` ' +
    '(−0.2 MiB).',
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
