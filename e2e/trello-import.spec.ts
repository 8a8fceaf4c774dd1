import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { expect, newUser, signUpViaApi, test } from './support/fixtures';
import { openDashboard, projectCard, type ApiProject } from './support/projects';
import { startOwnServer } from './support/server-process';

/**
 * The admin Trello import screen (issue 33, point 3), on a server of the file's own, whose first signup is
 * the owner (an admin). The board is the integration tests' fixture in Trello's export format (labels, a
 * member whose email a signed-up member has, comments, a checklist, an archived card and an archived list).
 */
const FIXTURE = new URL('../test/fixtures/trello/board.json', import.meta.url);
const boardFile = (memberEmail: string) => ({
  name: 'launch-plan.json',
  mimeType: 'application/json',
  buffer: Buffer.from(readFileSync(FIXTURE, 'utf8').replaceAll('grace.hopper@example.test', memberEmail)),
});
const OPEN = ['Design the landing page', 'Write the press release', 'Fix the login bug'];
const BOARD_INVALID =
  "This file is not a Trello board's JSON export (on the board: Menu, Print, export and share, Export as JSON). Nothing was imported.";

const fileInput = (page: Page) => page.getByLabel('Trello board export (JSON file)');
const previewHeading = (page: Page) =>
  page.getByRole('heading', { level: 2, name: 'What will be created from “Launch plan”' });

test('an admin previews a Trello board, maps a label, imports it, and a member sees the projects live', async ({
  browser,
}) => {
  const tempDir = mkdtempSync(path.join(os.tmpdir(), 'dojo-e2e-trello-'));
  const server = await startOwnServer(tempDir);
  const contexts: BrowserContext[] = [];
  try {
    const adminContext = await browser.newContext({
      baseURL: server.url,
      viewport: { width: 320, height: 800 },
    });
    contexts.push(adminContext);
    await signUpViaApi(adminContext.request, newUser('owner'));
    const memberContext = await browser.newContext({ baseURL: server.url });
    contexts.push(memberContext);
    const member = await signUpViaApi(memberContext.request, newUser('grace'));
    const memberPage = await memberContext.newPage();
    await openDashboard(memberPage);

    const page = await adminContext.newPage();
    await page.goto('/admin/imports');
    await expect(page.getByRole('heading', { name: 'Import from Trello', level: 1 })).toBeVisible();
    await fileInput(page).setInputFiles(boardFile(member.email));

    // The preview: what becomes what, the labels' categories (suggestions preselected), the members.
    await expect(previewHeading(page)).toBeVisible();
    await expect(page.getByText('5 projects from cards, 2 of them completed')).toBeVisible();
    await expect(page.getByText('3 comments', { exact: true })).toBeVisible();
    await expect(page.getByText(/^1 checklist \(2 items\)/)).toBeVisible();
    await expect(page.getByLabel('Design (1 card)')).toHaveValue('design');
    await expect(page.getByLabel('Dev (1 card)')).toHaveValue('development');
    await expect(page.getByLabel('Urgent (2 cards)')).toHaveValue('');
    await expect(page.getByLabel('Unnamed purple label (1 card)')).toHaveValue('');
    await expect(page.getByLabel('Due date of the 2 cards without one')).toHaveValue(/^\d{4}-\d{2}-\d{2}$/);
    const matched = page.getByRole('list').filter({ hasText: '→' });
    await expect(matched.getByText(`Grace Hopper → ${member.displayName}`)).toBeVisible();
    const unassigned = page
      .getByRole('heading', { name: 'Not matched: left unassigned' })
      .locator('xpath=following-sibling::ul[1]');
    await expect(unassigned.getByRole('listitem')).toHaveCount(2);
    await expect(unassigned.getByText(/^Alan Turing/)).toBeVisible();
    // Nothing is wider than a 320 px screen, and axe finds nothing.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await expectNoAxeViolations(page);

    // "Urgent" is the landing page's first label: mapped to Sales, the landing page becomes a sales project.
    await page.getByLabel('Urgent (2 cards)').selectOption('sales');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const progress = page.getByRole('progressbar', { name: 'Cards imported' });
    await expect(progress).toHaveJSProperty('value', 5);
    await expect(page.getByRole('heading', { name: 'Import finished' })).toBeFocused();
    await expect(page.getByText('5 projects created', { exact: true })).toBeVisible();
    await expect(page.getByText('3 comments created', { exact: true })).toBeVisible();
    await expect(page.getByText('0 skipped: already imported', { exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to the Dashboard' })).toBeVisible();
    // The app's live region says it too.
    await expect(page.getByText(/^Import finished: 5 projects and 3 comments created/)).toBeAttached();
    await expectNoAxeViolations(page);

    // The member's open dashboard shows the open ones without a reload; the archived card is completed.
    for (const name of OPEN) await expect(projectCard(memberPage, name)).toBeVisible();
    const listed = (await (await memberContext.request.get('/api/projects?limit=100')).json()) as {
      projects: ApiProject[];
    };
    const landing = listed.projects.find((project) => project.name === 'Design the landing page');
    expect(landing).toMatchObject({ category: 'sales', assignedUserIds: [member.uid] });
    await memberPage.goto('/completed');
    await expect(memberPage.getByText('Set up CI', { exact: true })).toBeVisible();
    await expect(memberPage.getByText('Pricing page experiment', { exact: true })).toBeVisible();

    // The same file again: the preview and the import both say nothing is new.
    await page.getByRole('button', { name: 'Import another file' }).click();
    await expect(fileInput(page)).toBeFocused();
    await fileInput(page).setInputFiles(boardFile(member.email));
    await expect(
      page.getByText('Nothing new: every card and comment in this file was imported before.'),
    ).toBeVisible();
    await expect(page.getByText('5 cards imported before: skipped')).toBeVisible();
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Import finished' })).toBeFocused();
    await expect(page.getByText('0 projects created', { exact: true })).toBeVisible();
    await expect(page.getByText('5 skipped: already imported', { exact: true })).toBeVisible();
    await expect(
      page.getByText('Nothing new: everything in this file had been imported before.'),
    ).toBeVisible();
    expect(
      ((await (await memberContext.request.get('/api/projects?limit=100')).json()) as { projects: unknown[] })
        .projects,
    ).toHaveLength(OPEN.length);
  } finally {
    for (const context of contexts) await context.close();
    await server.stop();
    rmSync(tempDir, { recursive: true, force: true });
  }
});

test('a malformed file shows the server’s message, and a member is told the page is for admins', async ({
  browser,
}) => {
  const tempDir = mkdtempSync(path.join(os.tmpdir(), 'dojo-e2e-trello-'));
  const server = await startOwnServer(tempDir);
  const contexts: BrowserContext[] = [];
  try {
    const adminContext = await browser.newContext({ baseURL: server.url });
    contexts.push(adminContext);
    await signUpViaApi(adminContext.request, newUser('owner'));
    const page = await adminContext.newPage();
    await page.goto('/admin/imports');
    await fileInput(page).setInputFiles({
      name: 'notes.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{"cards": "this is not a board"'),
    });
    await expect(page.getByRole('alert')).toHaveText(BOARD_INVALID);
    await expect(previewHeading(page)).toHaveCount(0);
    await fileInput(page).setInputFiles({
      name: 'other.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ name: 'Not a board', cards: 'none' })),
    });
    await expect(page.getByRole('alert')).toHaveText(BOARD_INVALID);
    await expectNoAxeViolations(page);

    const memberContext = await browser.newContext({ baseURL: server.url });
    contexts.push(memberContext);
    await signUpViaApi(memberContext.request, newUser('member'));
    const memberPage = await memberContext.newPage();
    await memberPage.goto('/admin/imports');
    await expect(memberPage.getByRole('heading', { name: 'Admins only', level: 1 })).toBeVisible();
    await expect(fileInput(memberPage)).toHaveCount(0);
  } finally {
    for (const context of contexts) await context.close();
    await server.stop();
    rmSync(tempDir, { recursive: true, force: true });
  }
});
