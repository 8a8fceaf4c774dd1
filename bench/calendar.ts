import path from 'node:path';
import { sql } from 'kysely';
import { chromium, type Browser } from '@playwright/test';
import { loadConfig } from '../src/server/config/config';
import { openDatabase } from '../src/server/db/database';
import { logIn, type Session } from './lib/clients';
import { DEFAULT_SEED_PASSWORD, seed } from './lib/seeder';
import { startServer } from './lib/server-process';
import { figure, fmt } from './lib/stats';
import type { Benchmark } from './lib/types';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from '../test/support/chromium';

const PROJECTS = 1000;
/** The month every seeded project is moved into: 31 days, so about 32 projects a day. */
const MONTH = '2031-03';

/**
 * In the page, from navigation start: when the month grid shows its days with their projects (every day of
 * the month has some), then a press of ArrowRight on the active day and when the next day has become the grid's tab stop.
 */
const INSTRUMENT = `(() => {
  const state = { gridVisible: null, interactive: null, projects: 0 };
  window.__dojoCalendarBench = state;
  const check = () => {
    if (state.gridVisible !== null) return;
    const grid = document.querySelector('[role="grid"][aria-busy="false"]');
    if (!grid) return;
    const shown = grid.querySelectorAll('.calendar-project');
    if (shown.length < 31) return;
    state.gridVisible = performance.now();
    state.projects = shown.length;
    const active = grid.querySelector('[role="gridcell"][tabindex="0"]');
    if (!active) return;
    const next = active.nextElementSibling ? active.nextElementSibling.getAttribute('data-day') : null;
    active.focus();
    active.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    const moved = () => {
      const current = grid.querySelector('[role="gridcell"][tabindex="0"]');
      if (current && current.getAttribute('data-day') === next) state.interactive = performance.now();
      else requestAnimationFrame(moved);
    };
    moved();
  };
  // Nodes added and the grid's aria-busy only: watching every attribute of the page made the watcher itself
  // a cost of the render it measures (a mutation record for each attribute React sets).
  new MutationObserver(check).observe(document, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ['aria-busy'],
  });
})();`;

interface CalendarState {
  gridVisible: number | null;
  interactive: number | null;
  projects: number;
}

interface Visit extends CalendarState {
  /** The largest live frame the page received: the month's snapshot. */
  snapshotBytes: number;
}

async function timeVisit(browser: Browser, baseUrl: string, session: Session): Promise<Visit> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const [name = '', value = ''] = session.cookie.split('=');
    await context.addCookies([{ name, value, url: baseUrl, httpOnly: true, sameSite: 'Lax' }]);
    const page = await context.newPage();
    await page.addInitScript(INSTRUMENT);
    let snapshotBytes = 0;
    page.on('websocket', (socket) =>
      socket.on('framereceived', ({ payload }) => {
        snapshotBytes = Math.max(snapshotBytes, Buffer.byteLength(payload));
      }),
    );
    await page.goto(`${baseUrl}/calendar?day=${MONTH}-14`, { waitUntil: 'commit' });
    try {
      await page.waitForFunction(
        () =>
          (window as unknown as { __dojoCalendarBench: CalendarState }).__dojoCalendarBench.interactive !==
          null,
        undefined,
        { timeout: 30_000, polling: 50 },
      );
    } catch (error) {
      const seen = await page.evaluate(() => ({
        url: location.href,
        state: (window as unknown as { __dojoCalendarBench: CalendarState }).__dojoCalendarBench,
        grid: document.querySelector('[role="grid"]')?.getAttribute('aria-busy'),
        projects: document.querySelectorAll('.calendar-project').length,
        active: document.querySelector('[role="gridcell"][tabindex="0"]')?.getAttribute('data-day'),
      }));
      throw new Error(`the calendar never became interactive: ${JSON.stringify(seen)}`, { cause: error });
    }
    const state = await page.evaluate(
      () => (window as unknown as { __dojoCalendarBench: CalendarState }).__dojoCalendarBench,
    );
    return { ...state, snapshotBytes };
  } finally {
    await context.close();
  }
}

/** Moves every seeded project into MONTH, spread over its days (the seeder spreads them over months). */
async function dueAllInOneMonth(dataDir: string): Promise<void> {
  const database = await openDatabase(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
  try {
    await sql`update projects set due_date = ${MONTH} || '-' || substr('0' || (1 + rowid % 31), -2)`.execute(
      database.db,
    );
  } finally {
    await database.close();
  }
}

export const calendar: Benchmark = {
  id: 'calendar',
  title: 'Web: the calendar month with 1,000 projects due in it',
  async run(context) {
    const webRoot = await context.webRoot();
    const dataDir = path.join(context.tmpDir, 'data');
    await seed({ dataDir, users: 30, projects: PROJECTS, comments: 0 });
    await dueAllInOneMonth(dataDir);
    const server = await startServer({ dataDir, webRoot, cpuProfDir: context.cpuProfDir });
    const browser = await chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS });
    try {
      const session = await logIn(server.url, 'seed.user0@example.com', DEFAULT_SEED_PASSWORD);
      await timeVisit(browser, server.url, session); // warm the server and Chromium's own caches
      const visits: Visit[] = [];
      const reps = context.quick ? 2 : Math.max(5, context.runs);
      for (let rep = 0; rep < reps; rep += 1) {
        const visit = await timeVisit(browser, server.url, session);
        visits.push(visit);
        context.log(
          `visit ${rep + 1}: grid ${fmt(visit.gridVisible ?? NaN, 0)} ms, interactive ${fmt(visit.interactive ?? NaN, 0)} ms (${visit.projects} shown; snapshot ${fmt(visit.snapshotBytes / 1024, 0)} kB)`,
        );
      }
      return {
        status: 'ok',
        method: [
          `${PROJECTS} seeded projects, all due in ${MONTH} (about 32 a day); a seeded user's session cookie in a ` +
            'fresh browser context (empty cache) per visit, navigation to `/calendar` on that month. An init ' +
            'script watches the DOM: “grid visible” when the month grid, no longer busy, shows its projects (three ' +
            'a day and “+N more”); then it presses ArrowRight on the active day and “interactive” is when the' +
            ' grid’s tab stop has moved to the next day. Times from navigation start; Debian’s Chromium, headless, 1280×800; one ' +
            'warm-up visit first.',
        ],
        figures: [
          figure(
            'calendar.interactive',
            'calendar month interactive (arrow key moves the active day)',
            'ms',
            visits.map((visit) => visit.interactive ?? NaN),
            0,
          ),
          figure(
            'calendar.gridVisible',
            'calendar month with its projects visible',
            'ms',
            visits.map((visit) => visit.gridVisible ?? NaN),
            0,
          ),
        ],
      };
    } finally {
      await browser.close();
      await server.stop();
    }
  },
};
