import { FOOTPRINT_BREAKDOWN, PEERS_NOTE } from './footprint';
import { GAPS } from './gaps';
import type { MachineInfo } from './machine';
import { fmt } from './stats';
import type { BenchResult, Figure } from './types';

interface BudgetRow {
  id: string;
  what: string;
  target: string;
  /** Figure ids that must exist; `met` decides from their medians. */
  figures: string[];
  measured(values: number[]): string;
  met(values: number[]): boolean;
  /** Parse Server 9.10 + LiveQuery on PostgreSQL, measured on a machine of this kind (see PEERS_NOTE). */
  peer: string;
  /** PocketBase 0.22 on SQLite, same machine kind and workload; '—' where not measured. */
  pocketbase?: string;
}

const BUDGET: BudgetRow[] = [
  {
    id: 'list',
    what: 'List API throughput, 1,000 projects',
    target: '≥ 0.7 × bare `node:http`',
    figures: ['list.ratio', 'list.rps', 'list.p99'],
    measured: ([ratio, rps, p99]) => `${fmt(ratio, 3)} × (${fmt(rps, 0)} req/s, p99 ${fmt(p99, 0)} ms)`,
    met: ([ratio]) => (ratio ?? 0) >= 0.7,
    peer: '0.12 ×',
    pocketbase: '0.10 ×',
  },
  {
    id: 'list-uncached',
    what: '1,000 projects listed right after a write (no cached body), SQLite',
    target: 'p50 ≤ 10 ms',
    figures: ['list.uncached.1000.p50', 'list.uncached.first.p50'],
    measured: ([large, first]) => `p50 ${fmt(large, 2)} ms (first page of 50: ${fmt(first, 2)} ms)`,
    met: ([large]) => (large ?? Infinity) <= 10,
    peer: '—',
  },
  {
    id: 'list-mixed',
    what: 'List throughput while one project is created every 100 ms',
    target: '≥ 0.5 × bare `node:http`',
    figures: ['list.mixed.ratio', 'list.mixed.rps'],
    measured: ([ratio, rps]) => `${fmt(ratio, 3)} × (${fmt(rps, 0)} req/s)`,
    met: ([ratio]) => (ratio ?? 0) >= 0.5,
    peer: '—',
  },
  {
    id: 'notifications-delivery',
    what: 'A comment on a project with 1,000 assignees: their 1,000 notifications and live unread counts, SQLite',
    target: 'every count delivered p99 ≤ 200 ms; the comment answered p99 ≤ 20 ms',
    figures: ['notifications.delivery.p99', 'notifications.comment.p99', 'notifications.delivery.p50'],
    measured: ([delivery, comment, p50]) =>
      `delivery p99 ${fmt(delivery)} ms (p50 ${fmt(p50)} ms); comment p99 ${fmt(comment)} ms`,
    met: ([delivery, comment]) => (delivery ?? Infinity) <= 200 && (comment ?? Infinity) <= 20,
    peer: '—',
  },
  {
    id: 'notifications-page',
    what: 'Notifications panel, first page: 1,000,000 stored vs 1,000',
    target: '≤ 2 ×',
    figures: ['notifications.page.ratio', 'notifications.page.large', 'notifications.page.small'],
    measured: ([ratio, large, small]) => `${fmt(ratio, 2)} × (${fmt(large, 2)} vs ${fmt(small, 2)} ms)`,
    met: ([ratio]) => (ratio ?? Infinity) <= 2,
    peer: '—',
  },
  {
    id: 'fanout-sqlite',
    what: 'Live fan-out to 1,000 sockets, SQLite',
    target: 'p99 ≤ 50 ms',
    figures: ['fanout.sqlite.p99', 'fanout.sqlite.p50'],
    measured: ([p99, p50]) => `p99 ${fmt(p99)} ms (p50 ${fmt(p50)} ms)`,
    met: ([p99]) => (p99 ?? Infinity) <= 50,
    peer: 'p99 136 ms (p50 114 ms); create answered in 33–88 ms meanwhile',
    pocketbase: 'p99 257 ms (p50 143 ms); create answered in 257 ms meanwhile',
  },
  {
    id: 'fanout-tabs',
    what: 'One create to 10,000 dashboard tabs (one client process), SQLite',
    target: 'p99 ≤ 250 ms; the create answered ≤ 20 ms p99; RSS with 10,000 idle sockets ≤ 150 MiB',
    figures: ['fanout.tabs.p99', 'fanout.tabs.create.p99', 'fanout.tabs.rss', 'fanout.tabs.clientCpu'],
    measured: ([p99, create, rss, clientCpu]) =>
      `p99 ${fmt(p99)} ms (client CPU ${fmt(clientCpu)} ms per create), create p99 ${fmt(create)} ms, ` +
      `RSS ${fmt(rss, 0)} MiB`,
    met: ([p99, create, rss]) =>
      (p99 ?? Infinity) <= 250 && (create ?? Infinity) <= 20 && (rss ?? Infinity) <= 150,
    peer: '—',
  },
  {
    id: 'fanout-postgres',
    what: 'Live fan-out to 1,000 sockets, 2 instances on PostgreSQL',
    target: 'p99 ≤ 50 ms',
    figures: ['fanout.postgres.p99', 'fanout.postgres.p50'],
    measured: ([p99, p50]) => `p99 ${fmt(p99)} ms (p50 ${fmt(p50)} ms)`,
    met: ([p99]) => (p99 ?? Infinity) <= 50,
    peer: 'p99 136 ms (p50 114 ms)',
  },
  {
    id: 'memory-idle',
    what: 'Server RSS idle (fresh start, SQLite, nothing connected)',
    target: '≤ 64 MiB',
    figures: ['memory.rssIdle'],
    measured: ([idle]) => `${fmt(idle, 0)} MiB`,
    met: ([idle]) => (idle ?? Infinity) <= 64,
    peer: '138 MiB',
    pocketbase: '38 MiB',
  },
  {
    id: 'memory-served',
    what: 'Server RSS after 1,000 signups and 10,000 projects served once',
    target: '≤ 96 MiB',
    figures: ['memory.rssServed'],
    measured: ([served]) => `${fmt(served, 0)} MiB`,
    met: ([served]) => (served ?? Infinity) <= 96,
    peer: '—',
  },
  {
    id: 'memory-per-connection',
    what: 'Memory per idle live connection',
    target: '≤ 10 KiB',
    figures: ['memory.perConnection'],
    measured: ([perConnection]) => `${fmt(perConnection)} KiB`,
    met: ([perConnection]) => (perConnection ?? Infinity) <= 10,
    peer: '18.9 KiB (at 5,000)',
    pocketbase: '57 KiB (at 5,000)',
  },
  {
    id: 'memory-10k',
    what: 'Server RSS with 10,000 idle live connections',
    target: '≤ 250 MiB',
    figures: ['memory.rss10000', 'memory.rssIdle'],
    measured: ([rss, idle]) => `${fmt(rss, 0)} MiB (idle ${fmt(idle, 0)} MiB)`,
    met: ([rss]) => (rss ?? Infinity) <= 250,
    peer: 'idle 138 MiB',
    pocketbase: 'idle 38 MiB',
  },
  {
    id: 'create',
    what: 'Create latency, 200 sequential creates',
    target: 'p99 ≤ 10 ms',
    figures: ['create.p99', 'create.p50'],
    measured: ([p99, p50]) => `p99 ${fmt(p99, 2)} ms (p50 ${fmt(p50, 2)} ms)`,
    met: ([p99]) => (p99 ?? Infinity) <= 10,
    peer: 'p99 14.3 ms',
    pocketbase: 'p99 17.2 ms',
  },
  {
    id: 'create-postgres',
    what: 'Create latency, 200 sequential creates, PostgreSQL with fsync on',
    target: 'p99 ≤ 10 ms',
    figures: [
      'create.postgres.p99',
      'create.postgres.p50',
      'create.postgres.wal-syncs',
      'create.postgres.statements',
    ],
    measured: ([p99, p50, syncs, statements]) =>
      `p99 ${fmt(p99, 2)} ms (p50 ${fmt(p50, 2)} ms; ${fmt(syncs, 2)} WAL syncs and ` +
      `${fmt(statements, 0)} statements per create)`,
    met: ([p99]) => (p99 ?? Infinity) <= 10,
    peer: 'p99 14.3 ms',
  },
  {
    id: 'comments',
    what: '50 clients × 20 concurrent comments',
    target: '1,000 of 1,000 kept, each client in order, ≤ 3 s',
    figures: ['comments.kept', 'comments.inOrder', 'comments.wall'],
    measured: ([kept, inOrder, wall]) =>
      `${fmt(kept, 0)} kept, ${fmt(inOrder, 0)}/50 clients in order, ${fmt((wall ?? NaN) / 1000, 2)} s`,
    met: ([kept, inOrder, wall]) => kept === 1000 && inOrder === 50 && (wall ?? Infinity) <= 3000,
    peer: '1,000 kept in 39.5 s, order lost (32 kept with a naive client)',
    pocketbase: '1,000 kept in 1.7 s',
  },
  {
    id: 'thread-bytes',
    what: 'Bytes per new comment, 10,000-comment thread vs 10',
    target: '≤ 1.1×',
    figures: ['thread.bytes.ratio', 'thread.bytes.10', 'thread.bytes.10000'],
    measured: ([ratio, small, large]) => `${fmt(ratio, 3)} × (${fmt(small, 0)} B → ${fmt(large, 0)} B)`,
    met: ([ratio]) => (ratio ?? Infinity) <= 1.1,
    peer: '—',
  },
  {
    id: 'thread-open',
    what: 'Project with 10,000 comments opens as fast as one with 10',
    target: '≤ 2×',
    figures: ['thread.open.ratio', 'thread.open.10', 'thread.open.10000'],
    measured: ([ratio, small, large]) => `${fmt(ratio, 2)} × (${fmt(small, 2)} ms → ${fmt(large, 2)} ms)`,
    met: ([ratio]) => (ratio ?? Infinity) <= 2,
    peer: '—',
  },
  {
    id: 'scale',
    what: 'First dashboard page, 100k vs 1k projects',
    target: '≤ 2×',
    figures: ['scale.ratio', 'scale.all.1000', 'scale.all.100000'],
    measured: ([ratio, small, large]) => `${fmt(ratio, 2)} × (${fmt(small)} ms → ${fmt(large)} ms)`,
    met: ([ratio]) => (ratio ?? Infinity) <= 2,
    peer: '—',
  },
  {
    id: 'scale-deep',
    what: 'Page 2,000 of 50 vs page 1 at 100k projects (live)',
    target: 'each ≤ 2× the other',
    figures: ['scale.deep.ratio', 'scale.all.100000', 'scale.deep.100000'],
    measured: ([ratio, first, deep]) =>
      `${fmt(ratio, 2)} × (page 1 ${fmt(first)} ms, page 2,000 ${fmt(deep)} ms)`,
    met: ([ratio]) => ratio !== undefined && ratio <= 2 && ratio >= 0.5,
    peer: '—',
  },
  {
    id: 'scale-users',
    what: 'Users panel first page, 10,000 vs 100 users',
    target: '≤ 2×',
    figures: ['scale.users.ratio', 'scale.users.panel.100', 'scale.users.panel.10000'],
    measured: ([ratio, small, large]) => `${fmt(ratio, 2)} × (${fmt(small)} ms → ${fmt(large)} ms)`,
    met: ([ratio]) => (ratio ?? Infinity) <= 2,
    peer: '—',
  },
  {
    id: 'scale-members',
    what: 'Members screen at 10,000 members: first page, search, page in the middle',
    target: 'each ≤ 50 ms',
    figures: [
      'scale.members.worst.10000',
      'scale.members.first.10000',
      'scale.members.search.10000',
      'scale.members.middle.10000',
    ],
    measured: ([worst, first, search, middle]) =>
      `slowest ${fmt(worst)} ms (first ${fmt(first)} ms, search ${fmt(search)} ms, middle ${fmt(middle)} ms)`,
    met: ([worst]) => (worst ?? Infinity) <= 50,
    peer: '—',
  },
  {
    id: 'search-sqlite',
    what: 'Search, two-word query at 100k projects / 1M comments, SQLite',
    target: 'p99 ≤ 50 ms',
    figures: ['search.sqlite.p99', 'search.sqlite.p50'],
    measured: ([p99, p50]) => `p99 ${fmt(p99)} ms (p50 ${fmt(p50)} ms)`,
    met: ([p99]) => (p99 ?? Infinity) <= 50,
    peer: '—',
  },
  {
    id: 'search-postgres',
    what: 'Search, two-word query at 100k projects / 1M comments, PostgreSQL',
    target: 'p99 ≤ 50 ms',
    figures: ['search.postgres.p99', 'search.postgres.p50'],
    measured: ([p99, p50]) => `p99 ${fmt(p99)} ms (p50 ${fmt(p50)} ms)`,
    met: ([p99]) => (p99 ?? Infinity) <= 50,
    peer: '—',
  },
  {
    id: 'web-js',
    what: 'First-visit JavaScript (gzip)',
    target: '≤ 100 kB',
    figures: ['web.js.dashboard', 'web.js.entry'],
    measured: ([dashboard, entry]) => `${fmt(dashboard)} kB (entry alone ${fmt(entry)} kB)`,
    met: ([dashboard]) => (dashboard ?? Infinity) <= 100,
    peer: 'original app ≈ 254 kB',
  },
  {
    id: 'web-tti',
    what: 'Dashboard with 1,000 projects rendered and interactive',
    target: '< 1 s',
    figures: ['web.interactive'],
    measured: ([interactive]) => `${fmt(interactive, 0)} ms`,
    met: ([interactive]) => (interactive ?? Infinity) < 1000,
    peer: '—',
  },
  {
    id: 'calendar-tti',
    what: 'Calendar month with 1,000 projects due in one month rendered and interactive',
    target: '< 1 s',
    figures: ['calendar.interactive'],
    measured: ([interactive]) => `${fmt(interactive, 0)} ms`,
    met: ([interactive]) => (interactive ?? Infinity) < 1000,
    peer: '—',
  },
  {
    id: 'storage',
    what: 'Resumable upload of 100 MB',
    target: '≥ 0.5 × bare loopback',
    figures: ['storage.ratio', 'storage.mbps'],
    measured: ([ratio, rate]) => `${fmt(ratio, 2)} × (${fmt(rate, 0)} MB/s)`,
    met: ([ratio]) => (ratio ?? 0) >= 0.5,
    peer: '—',
  },
  {
    id: 'storage-attachment',
    what: 'Attachment of 100 MB: resumable upload and registration',
    target: '≥ 0.5 × bare loopback',
    figures: ['storage.attachmentRatio', 'storage.attachmentMbps'],
    measured: ([ratio, rate]) => `${fmt(ratio, 2)} × (${fmt(rate, 0)} MB/s)`,
    met: ([ratio]) => (ratio ?? 0) >= 0.5,
    peer: '—',
  },
  {
    id: 'storage-s3',
    what: 'Resumable upload of 100 MB with STORAGE_DRIVER=s3 (Swift s3api)',
    target: '≥ 0.25 × bare S3 PUT',
    figures: ['storageS3.ratio', 'storageS3.mbps'],
    measured: ([ratio, rate]) => `${fmt(ratio, 2)} × (${fmt(rate, 0)} MB/s)`,
    met: ([ratio]) => (ratio ?? 0) >= 0.25,
    peer: '—',
  },
  {
    id: 'load',
    what: '500 users × 60 s mixed workload, each with a live dashboard (SQLite)',
    target: 'average < 50 ms, p99 < 500 ms, no errors, nothing lost',
    figures: ['load.500.avg', 'load.500.p99', 'load.500.errors', 'load.500.lost', 'load.500.rss'],
    measured: ([average, p99, errors, lost, rss]) =>
      `average ${fmt(average)} ms, p99 ${fmt(p99)} ms, ${fmt(errors, 0)} errors, ${fmt(lost, 0)} lost ` +
      `(RSS ${fmt(rss, 0)} MiB)`,
    met: ([average, p99, errors, lost]) =>
      (average ?? Infinity) < 50 && (p99 ?? Infinity) < 500 && errors === 0 && lost === 0,
    peer: '—',
  },
  {
    id: 'live-caps',
    what: '`GET /api/health` while one user at the live caps sees projects created',
    target: 'p99 < 50 ms',
    figures: ['liveCaps.healthP99', 'liveCaps.healthP50', 'liveCaps.subscriptions'],
    measured: ([p99, p50, groups]) =>
      `p99 ${fmt(p99, 2)} ms (p50 ${fmt(p50, 2)} ms; ${fmt(groups, 0)} query groups)`,
    met: ([p99]) => (p99 ?? Infinity) < 50,
    peer: '—',
  },
];

export interface ReportInput {
  results: BenchResult[];
  machine: MachineInfo;
  loadAfter: number[];
  date: Date;
  totalSeconds: number;
  quick: boolean;
  runs: number;
  partial: boolean;
  /** Servers ran from the esbuild bundle (as `npm start`), not through tsx. */
  compiled: boolean;
  /** Benchmarks measured again after the whole run (`--merge`), replacing that run's results. */
  remeasured?: { ids: string[]; date: Date | string; commit: string }[];
}

export function renderReport(input: ReportInput): string {
  const figures = new Map<string, Figure>();
  for (const result of input.results) {
    for (const figure of result.figures) {
      figures.set(figure.id, figure);
    }
  }
  const lines: string[] = [];
  const { machine } = input;
  lines.push('# Benchmarks', '');
  lines.push(
    '<!-- Generated by `npm run bench` (bench/run.ts). Do not edit by hand: change the bench and re-run it. -->',
    '',
  );
  if (input.quick)
    lines.push('> **Smoke run (`--quick`)**: smaller loads and one run; not comparable figures.', '');
  if (input.partial) lines.push('> **Partial run (`--only`)**: some benchmarks were skipped.', '');

  lines.push('## Budget', '');
  lines.push(
    'Targets from the issues, ahead of the self-hosted peers (Parse Server 9.10 + LiveQuery on PostgreSQL, ' +
      'PocketBase 0.22 on SQLite; how their figures were obtained is under “Peers” below). Measured = median ' +
      'of the runs below.',
    '',
  );
  lines.push('| | target | measured | met? | Parse 9.10 | PocketBase 0.22 |', '|---|---|---|---|---|---|');
  const misses: BudgetRow[] = [];
  for (const row of BUDGET) {
    const present = row.figures.map((id) => figures.get(id));
    const main = present[0];
    let measured: string;
    let met: string;
    if (!main) {
      const benchId = row.figures[0]?.split('.')[0] ?? '';
      const result = input.results.find((candidate) => candidate.id === benchId);
      measured =
        result?.status === 'pending' ? 'pending' : result?.status === 'failed' ? 'failed' : 'not run';
      met = result?.status === 'pending' ? '⏳ pending' : '—';
    } else {
      const values = present.map((figure) => figure?.median ?? Number.NaN);
      measured = row.measured(values);
      const ok = row.met(values);
      met = ok ? '✅ yes' : '❌ no';
      if (!ok) misses.push(row);
    }
    lines.push(
      `| ${row.what} | ${row.target} | ${measured} | ${met} | ${row.peer} | ${row.pocketbase ?? '—'} |`,
    );
  }
  lines.push('');
  if (misses.length > 0) {
    lines.push('### Where the budget is not met', '');
    for (const row of misses) {
      lines.push(`- **${row.what}.** ${GAPS[row.id] ?? 'Not analysed yet.'}`);
    }
    lines.push('');
  }

  lines.push('## Peers', '', ...PEERS_NOTE, '');
  lines.push(...FOOTPRINT_BREAKDOWN, '');

  lines.push('## Machine and run', '');
  lines.push(
    `- Date: ${input.date.toISOString().replace('T', ' ').slice(0, 16)} UTC; whole run ${fmt(input.totalSeconds / 60, 1)} min.`,
    `- CPU: ${machine.cpu}, ${machine.cores} cores; RAM ${fmt(machine.memoryGiB, 1)} GiB.`,
    `- OS: ${machine.os} (${machine.kernel}); Node ${machine.node}.`,
    `- Load average (1/5/15 min) at start ${machine.loadAverage.map((value) => fmt(value, 2)).join(' / ')}, ` +
      `at end ${input.loadAfter.map((value) => fmt(value, 2)).join(' / ')}. A load above the core count ` +
      'means other work shared the machine: regenerate on a quiet machine before comparing releases.',
    `- Runs per figure: ${input.runs} (each figure below is the median of its runs; the runs are listed).`,
    ...(input.remeasured ?? []).map(
      ({ ids, date, commit }) =>
        `- Measured again on ${new Date(date).toISOString().replace('T', ' ').slice(0, 16)} UTC at ${commit}, ` +
        `same machine, replacing the whole run's figures: ${ids.join(', ')}.`,
    ),
    '',
  );

  lines.push('## Method', '');
  lines.push(
    '- Every server runs in its own child process (`bench/lib/server-child.ts`: `loadConfig` + `createApp` + ' +
      '`listen`, as `src/server/main.ts`) on 127.0.0.1 with a fresh temp `DATA_DIR`, `LOG_LEVEL=warn`; the ' +
      'bench process is the client, on the same 2 cores. RSS is read from `/proc/<pid>/status`. ' +
      (input.compiled
        ? 'The child is compiled like `npm run build:server` (scripts/build-server.ts: one esbuild bundle with ' +
          'its dependencies) and runs in plain `node` with the flags of `npm start`, as `npm start` runs the product.'
        : '**This run used `--tsx`: servers ran from the TypeScript sources through tsx (≈ 60 MiB more RSS).**'),
    '- Clients authenticate like the web app: signup (multipart, with a PNG thumbnail) or login through the ' +
      'API, then the `dojo_session` cookie on every request and on the `/live` upgrade.',
    '- Data is made by `bench/lib/seeder.ts` (also `npm run seed`) through the server’s own services.',
    '- PostgreSQL runs use a throwaway cluster (`test/support/postgres-cluster.ts` with `durable: true`) ' +
      'with the stock durability settings — fsync, synchronous_commit and full_page_writes on — so every ' +
      'write’s figure includes the commit flush a production database gives (the tests run theirs with ' +
      'fsync off).',
    '- Servers run with the node flags of `npm start` (package.json, e.g. `--max-semi-space-size`), plus ' +
      '`--expose-gc` so memory readings can follow a full GC.',
    '',
  );

  for (const result of input.results) {
    lines.push(`## ${result.title}`, '');
    if (result.status === 'failed') lines.push(`**Failed:** ${result.error ?? 'unknown error'}`, '');
    if (result.status === 'pending') lines.push(`**Pending:** ${result.error ?? ''}`, '');
    for (const note of result.method) lines.push(`- ${note}`);
    if (result.method.length > 0) lines.push('');
    if (result.figures.length > 0) {
      lines.push('| figure | median | runs |', '|---|---|---|');
      for (const figure of result.figures) {
        const decimals = figure.decimals ?? 1;
        lines.push(
          `| ${figure.label} | **${fmt(figure.median, decimals)}** ${figure.unit} | ` +
            `${figure.runs.map((value) => fmt(value, decimals)).join(', ')} |`,
        );
      }
      lines.push('');
    }
    for (const detail of result.details ?? []) lines.push(detail);
    if (result.details?.length) lines.push('');
    lines.push(`_${fmt(result.seconds ?? 0, 0)} s._`, '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
