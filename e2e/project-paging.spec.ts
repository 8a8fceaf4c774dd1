import { WAIT_MS } from '../test/support/poll';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { messages } from '../src/common/messages';
import { insertProjectsInBulk } from '../test/support/bulk-projects';
import { expectNoAxeViolations } from './support/axe';
import { expect, newUser, signUpViaApi, test } from './support/fixtures';
import {
  closeAll,
  createProjectViaApi,
  cardNames,
  filterButton,
  openDashboard,
  projectCard,
  projectCards,
  uniqueProjectName,
} from './support/projects';
import { startOwnServer } from './support/server-process';

const BULK = 1060;

/** A calendar day `days` from today, as the browser (same machine) counts days. */
function dayFromToday(days: number): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

test("'Show more' goes on past 1,000 projects to the oldest, and the loaded pages stay live", async ({
  browser,
}) => {
  test.setTimeout(12 * WAIT_MS);
  const tempDir = mkdtempSync(path.join(os.tmpdir(), 'dojo-e2e-paging-'));
  const server = await startOwnServer(tempDir);
  const context = await browser.newContext({ baseURL: server.url });
  try {
    const user = await signUpViaApi(context.request, newUser('pager'));
    // More projects than the old 1,000 ceiling, written in bulk (the API would take minutes).
    const ids = await insertProjectsInBulk(
      { dataDir: path.join(tempDir, 'data') },
      { count: BULK, creatorId: user.uid, assigneeIds: [user.uid], perMillisecond: 2 },
    );
    const page = await context.newPage();
    await openDashboard(page);
    await expect(projectCards(page)).toHaveCount(50);

    const more = page.getByRole('button', { name: 'Show more', exact: true });
    for (let shown = 50; shown < BULK; shown += 50) {
      await more.click();
      await expect(projectCards(page)).toHaveCount(Math.min(shown + 50, BULK));
    }
    await expect(more).toHaveCount(0);
    await expect(page.getByRole('alert')).toHaveCount(0);
    // The oldest project is the last card: every project was reachable.
    await expect(projectCards(page).last()).toContainText('Bulk 0');
    expect(ids).toHaveLength(BULK);

    // Still live with every page loaded: a new project lands on top and nothing else moves or goes.
    const added = await createProjectViaApi(context.request, {
      name: uniqueProjectName('after paging'),
      assignedUserIds: [user.uid],
    });
    await expect(projectCards(page).first()).toContainText(added.name);
    await expect(projectCards(page)).toHaveCount(BULK + 1);
    await expect(projectCards(page).last()).toContainText('Bulk 0');
  } finally {
    await closeAll(context);
    await server.stop();
    rmSync(tempDir, { recursive: true, force: true });
  }
});

test('cards say which projects are overdue or due soon, in words, and the list sorts by due date', async ({
  signedIn,
  context,
}) => {
  const { page, user } = signedIn;
  const overdue = await createProjectViaApi(context.request, {
    name: uniqueProjectName('late'),
    dueDate: dayFromToday(-2),
    assignedUserIds: [user.uid],
  });
  const soon = await createProjectViaApi(context.request, {
    name: uniqueProjectName('soon'),
    dueDate: dayFromToday(3),
    assignedUserIds: [user.uid],
  });
  const later = await createProjectViaApi(context.request, {
    name: uniqueProjectName('later'),
    dueDate: dayFromToday(60),
    assignedUserIds: [user.uid],
  });
  await openDashboard(page);
  await expect(projectCard(page, overdue.name)).toContainText('Overdue');
  await expect(projectCard(page, soon.name)).toContainText('Due soon');
  await expect(projectCard(page, later.name)).not.toContainText(/Overdue|Due soon/);

  // Only this user's projects (other tests share the server), soonest due first.
  await filterButton(page, 'mine').click();
  await page.getByLabel('Sort by:').selectOption({ label: 'Due date, soonest first' });
  await expect(cardNames(projectCards(page))).toHaveText([overdue.name, soon.name, later.name]);
  await expect(page.getByText(messages.fetchFailed)).toHaveCount(0);
  await expectNoAxeViolations(page);

  await page.goto(`/projects/${overdue.id}`);
  await expect(page.getByText('Overdue', { exact: true })).toBeVisible();
});
