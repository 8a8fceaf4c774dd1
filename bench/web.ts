import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { logIn, type Session } from './lib/clients';
import { DEFAULT_SEED_PASSWORD, seed } from './lib/seeder';
import { startServer } from './lib/server-process';
import { figure, fmt, median } from './lib/stats';
import type { Benchmark } from './lib/types';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from '../test/support/chromium';

const PROJECTS = 1000;
/** The dashboard shows pages of 50; the first page is what a user sees. */
const FIRST_PAGE = 50;
const FILTER = 'design';
const kB = 1000;

const gzipSize = (bytes: Buffer): number => gzipSync(bytes, { level: 9 }).length;

interface AssetSizes {
  js: number;
  css: number;
  jsRaw: number;
  cssRaw: number;
  /** JS + CSS body bytes as the server sent them (compressed or not); only for observed visits. */
  wire: number;
  files: string[];
}

/** What index.html itself makes the browser load: module scripts, modulepreloads and stylesheets. */
async function entryAssets(webRoot: string): Promise<AssetSizes> {
  const html = await readFile(path.join(webRoot, 'index.html'), 'utf8');
  const sizes: AssetSizes = { js: 0, css: 0, jsRaw: 0, cssRaw: 0, wire: 0, files: [] };
  const tags = html.match(/<(script|link)\b[^>]*>/g) ?? [];
  for (const tag of tags) {
    const url = /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1];
    if (!url || /^https?:/.test(url)) continue;
    const isScript = tag.startsWith('<script') && /type="module"/.test(tag);
    const isPreload = /rel="modulepreload"/.test(tag);
    const isStyle = /rel="stylesheet"/.test(tag);
    if (!isScript && !isPreload && !isStyle) continue;
    const bytes = await readFile(path.join(webRoot, url.replace(/^\//, '')));
    if (isStyle) {
      sizes.css += gzipSize(bytes);
      sizes.cssRaw += bytes.length;
    } else {
      sizes.js += gzipSize(bytes);
      sizes.jsRaw += bytes.length;
    }
    sizes.files.push(url);
  }
  return sizes;
}

/** Every script and stylesheet a first visit (empty cache) to `route` actually fetched. */
async function observedAssets(
  browser: Browser,
  baseUrl: string,
  route: string,
  session?: Session,
): Promise<AssetSizes> {
  const context = await newContext(browser, baseUrl, session);
  try {
    const page = await context.newPage();
    const sizes: AssetSizes = { js: 0, css: 0, jsRaw: 0, cssRaw: 0, wire: 0, files: [] };
    const pending: Promise<void>[] = [];
    page.on('response', (response) => {
      const type = response.request().resourceType();
      if (type !== 'script' && type !== 'stylesheet') return;
      pending.push(
        response
          .request()
          .sizes()
          .then((transfer) => {
            sizes.wire += transfer.responseBodySize;
          }),
        response.body().then((body) => {
          if (type === 'script') {
            sizes.js += gzipSize(body);
            sizes.jsRaw += body.length;
          } else {
            sizes.css += gzipSize(body);
            sizes.cssRaw += body.length;
          }
          sizes.files.push(new URL(response.url()).pathname);
        }),
      );
    });
    await page.goto(`${baseUrl}${route}`, { waitUntil: 'networkidle' });
    await Promise.all(pending);
    return sizes;
  } finally {
    await context.close();
  }
}

async function newContext(browser: Browser, baseUrl: string, session?: Session): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  if (session) {
    const [name = '', value = ''] = session.cookie.split('=');
    await context.addCookies([{ name, value, url: baseUrl, httpOnly: true, sameSite: 'Lax' }]);
  }
  return context;
}

interface VisitTiming {
  listVisible: number;
  interactive: number;
  firstContentfulPaint: number;
  cards: number;
  showMore: boolean;
  /** What happened when, from navigation start: the waterfall of this visit. */
  steps: { what: string; start: number; end: number }[];
}

interface PageState {
  listVisible: number | null;
  interactive: number | null;
  cards: number;
  /** Whether 'Show more' was there when the first page became visible. */
  showMore: boolean;
  socketCreated: number | null;
  socketOpen: number | null;
  snapshot: number | null;
}

/**
 * In the page, from navigation start (performance.now()): when the live socket is made and opened and the
 * project list's snapshot arrives; when the first page of project cards is laid out; then a click on a
 * filter button and when that button reports itself pressed.
 */
const INSTRUMENT = `(() => {
  const state = { listVisible: null, interactive: null, cards: 0, showMore: false, socketCreated: null, socketOpen: null, snapshot: null };
  window.__dojoBench = state;
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      state.socketCreated ??= performance.now();
      this.addEventListener('open', () => { state.socketOpen ??= performance.now(); });
      this.addEventListener('message', (event) => {
        if (state.snapshot === null && typeof event.data === 'string' && event.data.startsWith('{"type":"snapshot"') && event.data.includes('"dueDate"')) {
          state.snapshot = performance.now();
        }
      });
    }
  };
  const check = () => {
    if (state.listVisible !== null) return;
    const cards = document.querySelectorAll('.project-list .project-card');
    if (cards.length < ${FIRST_PAGE}) return;
    const last = cards[cards.length - 1];
    if (!last || last.getBoundingClientRect().height === 0) return;
    state.listVisible = performance.now();
    state.cards = cards.length;
    state.showMore = [...document.querySelectorAll('button')].some((b) => /show more/i.test(b.textContent));
    const button = [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === '${FILTER}');
    if (!button) return;
    button.click();
    const pressed = () => {
      if (button.getAttribute('aria-pressed') === 'true') state.interactive = performance.now();
      else requestAnimationFrame(pressed);
    };
    pressed();
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
})();`;

async function timeVisit(browser: Browser, baseUrl: string, session: Session): Promise<VisitTiming> {
  const context = await newContext(browser, baseUrl, session);
  try {
    const page = await context.newPage();
    await page.addInitScript(INSTRUMENT);
    await page.goto(`${baseUrl}/`, { waitUntil: 'commit' });
    await page.waitForFunction(
      () => (window as unknown as { __dojoBench: PageState }).__dojoBench.interactive !== null,
      undefined,
      { timeout: 30_000, polling: 50 },
    );
    return await page.evaluate(() => {
      const state = (window as unknown as { __dojoBench: PageState }).__dojoBench;
      const steps: { what: string; start: number; end: number }[] = [];
      const navigation = performance.getEntriesByType('navigation')[0] as
        PerformanceNavigationTiming | undefined;
      if (navigation) {
        steps.push({ what: 'index.html', start: navigation.requestStart, end: navigation.responseEnd });
        steps.push({
          what: 'DOMContentLoaded',
          start: navigation.responseEnd,
          end: navigation.domContentLoadedEventEnd,
        });
      }
      for (const entry of performance.getEntriesByType('resource') as PerformanceResourceTiming[]) {
        const { pathname } = new URL(entry.name);
        if (/\.(woff2?|svg|png)$/.test(pathname) || pathname.startsWith('/v0/')) continue;
        steps.push({ what: pathname, start: entry.startTime, end: entry.responseEnd });
      }
      if (state.socketCreated !== null) {
        steps.push({
          what: 'live socket: handshake',
          start: state.socketCreated,
          end: state.socketOpen ?? NaN,
        });
        steps.push({
          what: 'live socket: project list snapshot',
          start: state.socketOpen ?? NaN,
          end: state.snapshot ?? NaN,
        });
      }
      steps.push({
        what: 'first page of cards laid out',
        start: state.snapshot ?? NaN,
        end: state.listVisible ?? NaN,
      });
      steps.push({
        what: 'filter click → pressed',
        start: state.listVisible ?? NaN,
        end: state.interactive ?? NaN,
      });
      steps.sort((a, b) => a.start - b.start);
      const paint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN;
      return {
        listVisible: state.listVisible ?? NaN,
        interactive: state.interactive ?? NaN,
        cards: state.cards,
        firstContentfulPaint: paint,
        showMore: state.showMore,
        steps,
      };
    });
  } finally {
    await context.close();
  }
}

export const web: Benchmark = {
  id: 'web',
  title: 'Web: first-visit bytes and time to an interactive dashboard',
  async run(context) {
    const webRoot = await context.webRoot();
    const entry = await entryAssets(webRoot);

    const dataDir = path.join(context.tmpDir, 'data');
    await seed({ dataDir, users: 30, projects: PROJECTS, comments: 0 });
    const server = await startServer({ dataDir, webRoot, cpuProfDir: context.cpuProfDir });
    const browser = await chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS });
    try {
      const session = await logIn(server.url, 'seed.user0@example.com', DEFAULT_SEED_PASSWORD);
      const dashboard = await observedAssets(browser, server.url, '/', session);
      const login = await observedAssets(browser, server.url, '/login');
      context.log(`JS gzip: entry ${fmt(entry.js / kB)} kB, dashboard visit ${fmt(dashboard.js / kB)} kB`);

      await timeVisit(browser, server.url, session); // warm the server and Chromium's own caches
      const visits: VisitTiming[] = [];
      const reps = context.quick ? 2 : Math.max(5, context.runs);
      for (let rep = 0; rep < reps; rep += 1) {
        const visit = await timeVisit(browser, server.url, session);
        visits.push(visit);
        context.log(
          `visit ${rep + 1}: list ${fmt(visit.listVisible, 0)} ms, interactive ${fmt(visit.interactive, 0)} ms (${visit.cards} cards)`,
        );
      }
      const cards = median(visits.map((visit) => visit.cards));
      const middle = median(visits.map((visit) => visit.interactive));
      const medianVisit = visits.find((visit) => visit.interactive === middle);
      return {
        status: 'ok',
        method: [
          '`vite build` into a temp dir; the server serves that build. Sizes are gzip level 9 (zlib) of each ' +
            'file, added up. “Entry” = the module scripts, modulepreloads and stylesheets named in index.html; ' +
            '“first visit” = every script and stylesheet Chromium fetched on a first visit with an empty cache ' +
            '(signed in, to the dashboard; signed out, to /login), lazy route chunks included.',
          'The server sends the brotli files the build wrote beside each text asset (Chromium accepts br); ' +
            'the bytes actually received are listed too.',
          `Interactive: ${PROJECTS} seeded projects, a seeded user’s session cookie set in a fresh browser ` +
            'context (empty cache) per visit, navigation to `/`. An init script watches the DOM: “list visible” ' +
            `when the first page of project cards (${FIRST_PAGE}, with “Show more” below) is laid out; then it ` +
            `clicks the “${FILTER}” filter and “interactive” is when that button reports itself pressed. Times ` +
            'are from navigation start (performance.now()). Debian’s Chromium, headless, 1280×800, no throttling; ' +
            'one warm-up visit first.',
          `Cards on screen when visible: ${cards}; “Show more” shown: ${visits.every((visit) => visit.showMore) ? 'yes' : 'no'}.`,
        ],
        figures: [
          figure('web.js.dashboard', 'first visit to the dashboard: JS (gzip)', 'kB', [dashboard.js / kB]),
          figure('web.css.dashboard', 'first visit to the dashboard: CSS (gzip)', 'kB', [dashboard.css / kB]),
          figure('web.js.login', 'first visit to /login: JS (gzip)', 'kB', [login.js / kB]),
          figure('web.css.login', 'first visit to /login: CSS (gzip)', 'kB', [login.css / kB]),
          figure('web.js.entry', 'entry (index.html): JS (gzip)', 'kB', [entry.js / kB]),
          figure('web.css.entry', 'entry (index.html): CSS (gzip)', 'kB', [entry.css / kB]),
          figure('web.wire.dashboard', 'first visit to the dashboard: JS + CSS bytes received', 'kB', [
            dashboard.wire / kB,
          ]),
          figure('web.raw.dashboard', 'first visit to the dashboard: JS + CSS uncompressed', 'kB', [
            (dashboard.jsRaw + dashboard.cssRaw) / kB,
          ]),
          figure(
            'web.interactive',
            'dashboard interactive (filter responds)',
            'ms',
            visits.map((visit) => visit.interactive),
            0,
          ),
          figure(
            'web.listVisible',
            'first page of projects visible',
            'ms',
            visits.map((visit) => visit.listVisible),
            0,
          ),
          figure(
            'web.fcp',
            'first contentful paint',
            'ms',
            visits.map((visit) => visit.firstContentfulPaint),
            0,
          ),
        ],
        details: [
          `Files of a first dashboard visit: ${dashboard.files.map((file) => `\`${file}\``).join(', ')}.`,
          '',
          `Waterfall of the median visit (ms from navigation start; ${fmt(medianVisit?.interactive, 0)} ms to interactive):`,
          '',
          '| step | start | end |',
          '|---|---|---|',
          ...(medianVisit?.steps ?? []).map(
            (step) => `| ${step.what} | ${fmt(step.start, 0)} | ${fmt(step.end, 0)} |`,
          ),
        ],
      };
    } finally {
      await browser.close();
      await server.stop();
    }
  },
};
