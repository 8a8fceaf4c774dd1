import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { expectNoAxeViolations, expectNoThemeAxeViolations } from './support/axe';
import { test as base, expect, newUser, signUpViaApi, type TestUser } from './support/fixtures';
import { closeAll, createProjectViaApi, uniqueProjectName } from './support/projects';
import { startOwnServer, type OwnServer } from './support/server-process';
import { fillLoginForm } from './support/ui';

/**
 * The dark theme and the room to work (issue 30, docs/decisions/069-dark-theme-and-room-to-work.md). One
 * server of its own, so its first signup is the owner who sees the admin screens.
 */

/** --bg-color of each theme, as getComputedStyle reports the page's background. */
const BACKGROUND = { light: 'rgb(244, 244, 244)', dark: 'rgb(18, 18, 22)' } as const;

/** What <html> looked like when the document was parsed, before any of the app's scripts ran. */
const FIRST_PAINT_PROBE = () => {
  document.addEventListener('DOMContentLoaded', () => {
    const root = document.documentElement;
    (window as unknown as { firstPaint: unknown }).firstPaint = {
      background: getComputedStyle(root).backgroundColor,
      theme: root.dataset.theme ?? null,
    };
  });
};

const firstPaint = (page: Page) =>
  page.evaluate(
    () => (window as unknown as { firstPaint: { background: string; theme: string | null } }).firstPaint,
  );

const background = (page: Page) =>
  page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

let server: OwnServer;
const contexts: BrowserContext[] = [];
let owner: TestUser;

/**
 * The file's server, once per worker: a `beforeAll` would start one per test, since with `fullyParallel`
 * every test is a group of its own and its `afterAll` runs right after it. Tests share the server and
 * its owner; each makes its own members, and closes its own browsers when it ends.
 */
const test = base.extend<{ ownBrowsersClosed: void }, { appearanceServer: void }>({
  appearanceServer: [
    async ({ playwright }, use) => {
      const tempDir = mkdtempSync(path.join(os.tmpdir(), 'dojo-e2e-appearance-'));
      server = await startOwnServer(tempDir);
      try {
        const request = await playwright.request.newContext({ baseURL: server.url });
        try {
          owner = await signUpViaApi(request, newUser('owner'));
        } finally {
          await request.dispose();
        }
        await use();
      } finally {
        await server.stop();
        rmSync(tempDir, { recursive: true, force: true });
      }
    },
    { scope: 'worker', auto: true },
  ],
  ownBrowsersClosed: [
    // Playwright reads a fixture's dependencies from its first parameter, which must be an object
    // pattern: this one needs none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      await use();
      await closeAll(...contexts.splice(0));
    },
    { auto: true },
  ],
});

async function memberBrowser(
  browser: Browser,
  options: { colorScheme?: 'light' | 'dark'; viewport?: { width: number; height: number } } = {},
) {
  const context = await browser.newContext({ baseURL: server.url, ...options });
  contexts.push(context);
  const user = await signUpViaApi(context.request, newUser('painter'));
  return { context, page: await context.newPage(), user };
}

test('follows the device, a pinned theme wins and is there from the first paint after a reload', async ({
  browser,
}) => {
  const { context, page } = await memberBrowser(browser, { colorScheme: 'dark' });
  await context.addInitScript(FIRST_PAINT_PROBE);

  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Dashboard', exact: true })).toBeVisible();
  expect(await firstPaint(page)).toEqual({ background: BACKGROUND.dark, theme: null });
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(() => background(page)).toBe(BACKGROUND.light);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => background(page)).toBe(BACKGROUND.dark);

  await page.goto('/settings');
  const light = page.getByRole('radio', { name: 'Light' });
  await light.check();
  await expect(page.getByRole('status').filter({ hasText: 'Theme saved: Light.' })).toBeVisible();
  await expect.poll(() => background(page)).toBe(BACKGROUND.light);

  // The device still prefers dark; the page arrives light, before any script of the app ran.
  await page.reload();
  await expect(light).toBeChecked();
  expect(await firstPaint(page)).toEqual({ background: BACKGROUND.light, theme: 'light' });

  // Back to the device's setting: dark again, from the first paint.
  await page.getByRole('radio', { name: "Same as this device's setting" }).check();
  await expect(page.getByRole('status').filter({ hasText: 'Theme saved' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('radio', { name: "Same as this device's setting" })).toBeChecked();
  expect(await firstPaint(page)).toEqual({ background: BACKGROUND.dark, theme: null });
});

test('the pinned theme follows the member to a browser they sign in on', async ({ browser }) => {
  const first = await memberBrowser(browser, { colorScheme: 'light' });
  const saved = await first.page.request.put('/api/account/appearance', { data: { theme: 'dark' } });
  expect(saved.status()).toBe(200);

  const context = await browser.newContext({ baseURL: server.url, colorScheme: 'light' });
  contexts.push(context);
  const page = await context.newPage();
  const appearanceReads: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/account/appearance') appearanceReads.push(request.method());
  });
  await page.goto('/login');
  await fillLoginForm(page, first.user.email, first.user.password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard', exact: true })).toBeVisible();
  await expect.poll(() => background(page)).toBe(BACKGROUND.dark);
  // The sign-in's answer carried the theme in its cookie: no round trip to ask, and the next page load is
  // dark from its first paint.
  expect(appearanceReads).toEqual([]);
  await context.addInitScript(FIRST_PAINT_PROBE);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Dashboard', exact: true })).toBeVisible();
  expect(await firstPaint(page)).toEqual({ background: BACKGROUND.dark, theme: 'dark' });
  expect(appearanceReads).toEqual([]);
});

/** The owner signed in, in a browser whose device prefers `scheme`. */
async function ownerBrowser(browser: Browser, scheme: 'light' | 'dark') {
  const context = await browser.newContext({ baseURL: server.url, colorScheme: scheme });
  contexts.push(context);
  const login = await context.request.post('/api/auth/login', {
    data: { email: owner.email, password: owner.password },
  });
  expect(login.ok()).toBe(true);
  return { context, page: await context.newPage() };
}

for (const scheme of ['light', 'dark'] as const) {
  // The theme's own axe rules on every screen (colour contrast); the full axe set runs on each screen in
  // that screen's own spec, once, since no other rule depends on the theme.
  test.describe(`axe's colour rules in the ${scheme} theme`, () => {
    test.describe.configure({ timeout: 240_000 });

    test('the sign-in pages and the not-found page', async ({ browser }) => {
      const visitor = await browser.newContext({ baseURL: server.url, colorScheme: scheme });
      contexts.push(visitor);
      const page = await visitor.newPage();
      for (const [address, heading] of [
        ['/login', 'login'],
        ['/signup', 'sign up'],
        ['/forgot-password', undefined],
        ['/reset-password?token=not-a-real-token', undefined],
        ['/no-such-page', undefined],
      ] as const) {
        await page.goto(address);
        if (heading) await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
        else await expect(page.getByRole('heading').first()).toBeVisible();
        await expect.poll(() => background(page)).toBe(BACKGROUND[scheme]);
        await expectNoThemeAxeViolations(page);
      }
    });

    test('every signed-in screen, the admin ones included', async ({ browser }) => {
      const { context, page } = await ownerBrowser(browser, scheme);
      const project = await createProjectViaApi(context.request, {
        name: uniqueProjectName(`axe ${scheme}`),
        assignedUserIds: [owner.uid],
        dueDate: '2020-01-01',
      });
      const screens: [string, string][] = [
        ['/', 'Dashboard'],
        ['/create', 'Create a new Project'],
        [`/projects/${project.id}`, project.name],
        [`/projects/${project.id}/edit`, `Edit ${project.name}`],
        ['/completed', 'Completed projects'],
        ['/calendar', 'Calendar'],
        ['/settings', 'Account settings'],
        ['/admin/members', 'Members'],
        ['/admin/invitations', 'Invitations'],
      ];
      for (const [address, heading] of screens) {
        await page.goto(address);
        await expect(page.getByRole('heading', { name: heading }).first()).toBeVisible();
        await expect.poll(() => background(page)).toBe(BACKGROUND[scheme]);
        await expectNoThemeAxeViolations(page);
      }
    });

    test("a select's open menu, the search results and the notifications panel", async ({ browser }) => {
      const { context, page } = await ownerBrowser(browser, scheme);
      const project = await createProjectViaApi(context.request, {
        name: uniqueProjectName(`found ${scheme}`),
        assignedUserIds: [owner.uid],
      });
      await page.goto('/create');
      await page.getByRole('combobox', { name: 'Project category:' }).click();
      await expect(page.getByRole('listbox')).toBeVisible();
      await expectNoThemeAxeViolations(page);

      await page.goto('/');
      const box = page.getByRole('combobox', { name: 'Search projects' });
      await box.fill(project.name);
      await expect(page.getByRole('listbox', { name: 'Projects found' })).toBeVisible();
      await expectNoThemeAxeViolations(page);
      await box.press('Escape');
      await page.getByRole('button', { name: /^Notifications/ }).click();
      await expect(page.getByRole('region', { name: 'Notifications' })).toBeVisible();
      await expectNoThemeAxeViolations(page);
    });
  });
}

test('the users panel folds to a rail, is announced, remembered after a reload, and opens again', async ({
  browser,
}) => {
  const { page } = await memberBrowser(browser, { viewport: { width: 1280, height: 900 } });
  await page.goto('/');
  const panel = page.getByRole('complementary', { name: 'All Users' });
  const toggle = panel.getByRole('button', { name: 'Hide' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const controlled = page.locator(`#${(await toggle.getAttribute('aria-controls')) ?? ''}`);
  await expect(controlled).toBeVisible();
  const mainWidth = async () => (await page.locator('main').boundingBox())?.width ?? 0;
  const openWidth = await mainWidth();

  await toggle.click();
  const show = panel.getByRole('button', { name: 'Show users' });
  await expect(show).toHaveAttribute('aria-expanded', 'false');
  await expect(show).toBeFocused();
  await expect(controlled).toBeHidden();
  await expect(page.getByText('Users panel hidden.')).toBeAttached();
  await expect.poll(mainWidth).toBeGreaterThan(openWidth + 100);

  await page.reload();
  await expect(show).toHaveAttribute('aria-expanded', 'false');
  await expect(controlled).toBeHidden();
  await expectNoAxeViolations(page);

  await show.press('Enter');
  await expect(panel.getByRole('button', { name: 'Hide' })).toHaveAttribute('aria-expanded', 'true');
  await expect(controlled).toBeVisible();
  await page.reload();
  await expect(controlled).toBeVisible();
});

test('the members table shows its actions without scrolling sideways at 1280 px, and is a list at 375 px', async ({
  browser,
}) => {
  const { page } = await ownerBrowser(browser, 'light');
  const region = page.getByRole('region', { name: 'All members', exact: true });
  const noSidewaysScroll = () => region.evaluate((element) => element.scrollWidth <= element.clientWidth);

  for (const width of [1280, 1440, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/admin/members');
    const resetLink = region.getByRole('button', { name: 'Reset link' }).first();
    await expect(resetLink).toBeVisible();
    expect(await noSidewaysScroll()).toBe(true);
    await expect(resetLink).toBeInViewport({ ratio: 1 });
  }

  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/admin/members');
  const row = region.locator('tbody tr').first();
  await expect(row).toBeVisible();
  expect(await row.evaluate((element) => getComputedStyle(element).display)).toBe('block');
  const email = row.locator('td[data-label="Email"]');
  // The label is drawn for the eye with an empty alternative: the cell keeps its role and its own name.
  expect(await email.evaluate((element) => getComputedStyle(element, '::before').content)).toBe(
    '"Email: " / ""',
  );
  await expect(row.getByRole('cell', { name: /^(Admin|Member)$/ })).toBeVisible();
  expect(await noSidewaysScroll()).toBe(true);
  const phoneResetLink = row.getByRole('button', { name: 'Reset link' });
  await phoneResetLink.scrollIntoViewIfNeeded();
  await expect(phoneResetLink).toBeInViewport({ ratio: 1 });
  await expectNoAxeViolations(page);
});
