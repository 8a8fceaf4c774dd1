/**
 * `npm run bench [-- --quick] [-- --only list,fanout,...] [-- --runs N] [-- --out FILE] [-- --profile DIR]`
 *
 * Runs every benchmark (each module under bench/ is one), each against servers in child processes on
 * 127.0.0.1 with their own temp DATA_DIR, and writes docs/benchmarks.md: the budget table, the machine,
 * the date, method notes and every figure with its per-run values. Raw results go to
 * .tmp/benchmarks.json (`--render` turns such a file into the report again), and a whole run's also to
 * docs/benchmarks.json, which `--only X --merge docs/benchmarks.json` updates when X is measured again. Benchmarks are scripts, not tests: nothing here asserts a time.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { calendar } from './calendar';
import { comments } from './comments';
import { commentThread } from './comment-thread';
import { createLatency } from './create-latency';
import { fanout } from './fanout';
import { listThroughput } from './list-throughput';
import { load } from './load';
import { liveCaps } from './live-caps';
import { memory } from './memory';
import { notifications } from './notifications';
import { machineInfo } from './lib/machine';
import { renderReport, type ReportInput } from './lib/report';
import { compileServers } from './lib/server-process';
import type { BenchContext, BenchResult, Benchmark } from './lib/types';
import { scale } from './scale';
import { search } from './search';
import { storage } from './storage';
import { storageS3 } from './storage-s3';
import { web } from './web';
import { buildWebApp } from './lib/web-build';

const BENCHMARKS: Benchmark[] = [
  listThroughput,
  fanout,
  memory,
  createLatency,
  comments,
  commentThread,
  scale,
  web,
  calendar,
  storage,
  storageS3,
  load,
  liveCaps,
  search,
  notifications,
];

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    runs: { type: 'string' },
    out: { type: 'string' },
    profile: { type: 'string' },
    tsx: { type: 'boolean', default: false },
    render: { type: 'string' },
    merge: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  console.log(
    'Usage: npm run bench -- [--quick] [--only ' +
      BENCHMARKS.map((benchmark) => benchmark.id).join(',') +
      '] [--runs N] [--out FILE] [--profile DIR]\n' +
      '  --quick    smoke run: fewer runs, smaller loads (figures are not comparable)\n' +
      '  --only     run only these benchmarks (the report then covers only them)\n' +
      '  --out      report path (default docs/benchmarks.md; --quick and --only default to .tmp/)\n' +
      '  --profile  write V8 CPU profiles of every server process into DIR\n' +
      '  --tsx      run servers from the TypeScript sources through tsx instead of a compiled bundle\n' +
      '  --render   re-render the report from a results file (.tmp/benchmarks.json) without running anything\n' +
      "  --merge    with --only: put these results into a whole run's results file (docs/benchmarks.json)\n" +
      '             and write the whole report again, saying which benchmarks were measured again and when',
  );
  process.exit(0);
}

if (values.render) {
  // Only the report text changes (e.g. bench/lib/gaps.ts was edited): the figures stay those measured.
  const saved = JSON.parse(await readFile(values.render, 'utf8')) as ReportInput & { date: string };
  const input: ReportInput = { ...saved, date: new Date(saved.date) };
  const target = path.resolve(
    values.out ?? (input.quick || input.partial ? '.tmp/benchmarks-partial.md' : 'docs/benchmarks.md'),
  );
  await writeFile(target, renderReport(input));
  console.log(`re-rendered ${path.relative(process.cwd(), target)} from ${values.render}`);
  process.exit(0);
}

const quick = values.quick;
const only = values.only?.split(',').map((id) => id.trim());
const unknown = only?.filter((id) => !BENCHMARKS.some((benchmark) => benchmark.id === id)) ?? [];
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}`);
  process.exit(2);
}
const selected = BENCHMARKS.filter((benchmark) => !only || only.includes(benchmark.id));
const runs = values.runs ? Number(values.runs) : quick ? 1 : 3;
if (values.merge && (!only || quick)) {
  console.error('--merge takes the results of an --only run (not --quick) into a whole run');
  process.exit(2);
}
// A partial or smoke run must not overwrite the real report unless asked to, or merged into a whole run.
const out = path.resolve(
  values.out ?? ((quick || only) && !values.merge ? '.tmp/benchmarks-partial.md' : 'docs/benchmarks.md'),
);
/** A whole run's raw results are kept beside its report, so that one benchmark can be measured again later. */
const WHOLE_RESULTS = 'docs/benchmarks.json';

const started = Date.now();
// The code measured is the code at the start: a commit made while the run goes on must not be named.
const commitAtStart = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
const tmpDir = await mkdtemp(path.join(os.tmpdir(), 'dojo-bench-'));
const machineBefore = machineInfo();
// Servers run as `npm start` runs them: compiled with esbuild, plain node (unless --tsx).
if (!values.tsx) await compileServers(path.resolve('.tmp/bench-server'));
const results: BenchResult[] = [];
let webBuild: Promise<string> | undefined;
const stamp = () => `${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s`;

try {
  for (const benchmark of selected) {
    const benchStarted = Date.now();
    const context: BenchContext = {
      quick,
      runs,
      tmpDir: await mkdtemp(path.join(tmpDir, `${benchmark.id}-`)),
      cpuProfDir: values.profile,
      webRoot: () => {
        webBuild ??= (async () => {
          const webRoot = path.join(tmpDir, 'web');
          context.log('vite build (once for the whole run)');
          await buildWebApp(webRoot);
          return webRoot;
        })();
        return webBuild;
      },
      log: (line) => console.log(`${stamp()} [${benchmark.id}] ${line}`),
    };
    context.log(`── ${benchmark.title}`);
    let result: BenchResult;
    try {
      const outcome = await benchmark.run(context);
      result = { id: benchmark.id, title: benchmark.title, ...outcome };
    } catch (error) {
      console.error(error);
      result = {
        id: benchmark.id,
        title: benchmark.title,
        status: 'failed',
        method: [],
        figures: [],
        error: error instanceof Error ? error.message : String(error),
      };
    }
    result.seconds = (Date.now() - benchStarted) / 1000;
    results.push(result);
    context.log(`done in ${result.seconds.toFixed(0)} s (${result.status})`);
    for (const figure of result.figures) {
      context.log(`  ${figure.label}: ${figure.median.toFixed(figure.decimals ?? 1)} ${figure.unit}`);
    }
    // Each benchmark's data dir can be large (100k projects): free it at once.
    await rm(context.tmpDir, { recursive: true, force: true });
  }
} finally {
  await rm(tmpDir, { recursive: true, force: true });
}

const totalSeconds = (Date.now() - started) / 1000;
const input: ReportInput = {
  results,
  machine: machineBefore,
  loadAfter: os.loadavg(),
  date: new Date(started),
  totalSeconds,
  quick,
  runs,
  partial: only !== undefined,
  compiled: !values.tsx,
};
const report = values.merge ? await mergeIntoWholeRun(values.merge, input) : input;
await mkdir(path.dirname(out), { recursive: true });
await writeFile(out, renderReport(report));
await mkdir('.tmp', { recursive: true });
await writeFile(path.resolve('.tmp/benchmarks.json'), JSON.stringify(input, null, 2));
if (!quick && (!only || values.merge)) {
  await writeFile(path.resolve(values.merge ?? WHOLE_RESULTS), `${JSON.stringify(report, null, 2)}\n`);
}
console.log(`\n${stamp()} wrote ${path.relative(process.cwd(), out)} (${totalSeconds.toFixed(0)} s in all)`);
// Keep-alive agents and the like must not hold the process open.
process.exit(results.some((result) => result.status === 'failed') ? 1 : 0);

/**
 * The whole run in `file` with this run's benchmarks in place of its own, and a note of when they were
 * measured again (at which commit), so the report stays one document with every budget line.
 */
async function mergeIntoWholeRun(file: string, again: ReportInput): Promise<ReportInput> {
  const whole = JSON.parse(await readFile(file, 'utf8')) as ReportInput & { date: string };
  if (whole.partial || whole.quick) throw new Error(`${file} is not a whole run's results`);
  const ids = again.results.map((result) => result.id);
  return {
    ...whole,
    date: new Date(whole.date),
    results: whole.results.map((result) => again.results.find((fresh) => fresh.id === result.id) ?? result),
    remeasured: [...(whole.remeasured ?? []), { ids, date: again.date, commit: commitAtStart }],
  };
}
