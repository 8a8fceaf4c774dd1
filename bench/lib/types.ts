/** What every benchmark module receives and returns; bench/run.ts turns results into docs/benchmarks.md. */
export interface BenchContext {
  quick: boolean;
  /** Repetitions per figure (3 full, fewer in --quick). */
  runs: number;
  /** A temp dir of this bench run, removed at the end. */
  tmpDir: string;
  /** The web client built once for the whole bench run (`vite build`): servers serve it as `npm start`'s does. */
  webRoot(): Promise<string>;
  /** Write server CPU profiles here (--profile). */
  cpuProfDir: string | undefined;
  log(line: string): void;
}

export interface Figure {
  id: string;
  label: string;
  unit: string;
  /** One value per run; `median` is their median. */
  runs: number[];
  median: number;
  decimals?: number;
}

export interface BenchResult {
  id: string;
  title: string;
  status: 'ok' | 'pending' | 'failed';
  /** Method notes, one markdown paragraph or bullet each. */
  method: string[];
  figures: Figure[];
  /** Extra markdown (tables, details) printed after the figures. */
  details?: string[];
  error?: string;
  seconds?: number;
}

export interface Benchmark {
  id: string;
  title: string;
  run(context: BenchContext): Promise<Omit<BenchResult, 'id' | 'title' | 'seconds'>>;
}
