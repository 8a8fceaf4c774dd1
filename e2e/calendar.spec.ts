import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { expect, holdRequests, newSignedInContext, newUser, test } from './support/fixtures';
import { closeAll, createProjectViaApi, uniqueProjectName, type ApiProject } from './support/projects';

/**
 * The calendar (docs/product-spec.md, the calendar screen): two members of one team, each in their own
 * browser context. A month far in the future keeps these projects apart from every other test's.
 */
const MONTH_DAY = '2032-07-14';

const dayCell = (page: Page, day: string) => page.locator(`[role="gridcell"][data-day="${day}"]`);

async function openCalendar(page: Page, query = `?day=${MONTH_DAY}`): Promise<void> {
  await page.goto(`/calendar${query}`);
  await expect(page.getByRole('grid')).toBeVisible();
  await expect(page.getByRole('grid')).toHaveAttribute('aria-busy', 'false');
}

test('a teammate’s new project appears live; dragging and the keyboard move it and the other member sees it move', async ({
  browser,
}) => {
  const a = await newSignedInContext(browser, newUser('watcher'));
  const b = await newSignedInContext(browser, newUser('mover'));
  try {
    await openCalendar(a.page);
    await openCalendar(b.page);
    await expect(a.page.getByRole('heading', { name: 'July 2032' })).toBeVisible();

    const name = uniqueProjectName('calendar');
    await createProjectViaApi(b.context.request, {
      name,
      dueDate: '2032-07-16',
      category: 'design',
      assignedUserIds: [a.user.uid],
    });
    // Live: no reload on either side.
    await expect(dayCell(a.page, '2032-07-16').getByText(name)).toBeVisible();
    await expect(dayCell(a.page, '2032-07-16')).toHaveAttribute(
      'aria-label',
      /Friday, July 16, 2032, 1 project due/,
    );
    const project = dayCell(b.page, '2032-07-16').locator('.calendar-project', { hasText: name });
    await expect(project).toBeVisible();

    // Dragging it (its creator may move it) to the 20th.
    await expect(project).toHaveAttribute('draggable', 'true');
    // Taken by its coloured stripe, beside the link, to a day in view (a drag does not scroll the page).
    await b.page.setViewportSize({ width: 1280, height: 1200 });
    await dayCell(b.page, '2032-07-20').scrollIntoViewIfNeeded();
    await project.dragTo(dayCell(b.page, '2032-07-20'), { sourcePosition: { x: 3, y: 6 } });
    await expect(dayCell(b.page, '2032-07-20').getByText(name)).toBeVisible();
    await expect(dayCell(a.page, '2032-07-20').getByText(name)).toBeVisible();
    await expect(dayCell(a.page, '2032-07-16').getByText(name)).toHaveCount(0);

    // By keyboard: the day's list, Move, two days on, Enter.
    const twentieth = dayCell(b.page, '2032-07-20');
    await twentieth.locator('.calendar-day-number').click();
    await expect(twentieth).toBeFocused();
    await b.page.keyboard.press('Enter');
    await expect(b.page.getByRole('heading', { name: 'Due Tuesday, July 20, 2032' })).toBeFocused();
    await b.page.getByRole('button', { name: `Move ${name}` }).click();
    await expect(twentieth).toBeFocused();
    await b.page.keyboard.press('ArrowRight');
    await b.page.keyboard.press('ArrowRight');
    await expect(dayCell(b.page, '2032-07-22')).toBeFocused();
    await b.page.keyboard.press('Enter');
    await expect(dayCell(b.page, '2032-07-22').getByText(name)).toBeVisible();
    await expect(dayCell(a.page, '2032-07-22').getByText(name)).toBeVisible();
    await expect(dayCell(a.page, '2032-07-20').getByText(name)).toHaveCount(0);
  } finally {
    await closeAll(a.context, b.context);
  }
});

test('Show completed (remembered in this browser) shows completed projects apart, and a teammate’s reopen moves one back live', async ({
  browser,
}) => {
  const a = await newSignedInContext(browser, newUser('looker'));
  const b = await newSignedInContext(browser, newUser('finisher'));
  try {
    const name = uniqueProjectName('finished');
    const project = await createProjectViaApi(b.context.request, {
      name,
      dueDate: '2032-07-08',
      category: 'sales',
      assignedUserIds: [b.user.uid],
    });
    expect((await b.context.request.delete(`/api/projects/${project.id}`)).status()).toBe(204);

    await openCalendar(a.page);
    const eighth = dayCell(a.page, '2032-07-08');
    const showCompleted = a.page.getByRole('switch', { name: 'Show completed' });
    // Off at first: the completed project is not on the calendar.
    await expect(showCompleted).not.toBeChecked();
    await expect(eighth.getByText(name)).toHaveCount(0);

    await showCompleted.check();
    const completedLink = eighth.getByRole('link', { name: `Completed: ${name}` });
    await expect(completedLink).toBeVisible();
    await expect(completedLink).toHaveCSS('text-decoration-line', 'line-through');
    await expect(eighth.locator('.calendar-project', { hasText: name })).not.toHaveAttribute(
      'draggable',
      'true',
    );
    await expect(eighth).toHaveAttribute('aria-label', /no projects due, 1 completed/);
    await expectNoAxeViolations(a.page);

    // Remembered in this browser.
    await a.page.reload();
    await expect(a.page.getByRole('switch', { name: 'Show completed' })).toBeChecked();
    await expect(completedLink).toBeVisible();

    // The creator reopens it in their own browser: it leaves the completed ones and shows open, live.
    expect((await b.context.request.post(`/api/completed-projects/${project.id}/reopen`)).status()).toBe(200);
    await expect(completedLink).toHaveCount(0);
    await expect(eighth.getByRole('link', { name, exact: true })).toBeVisible();
    await expect(eighth).toHaveAttribute('aria-label', /1 project due$/);

    // Completed again: back among the completed, live; switched off, it is gone.
    expect((await b.context.request.delete(`/api/projects/${project.id}`)).status()).toBe(204);
    await expect(completedLink).toBeVisible();
    await a.page.getByRole('switch', { name: 'Show completed' }).uncheck();
    await expect(eighth.getByText(name)).toHaveCount(0);
  } finally {
    await closeAll(a.context, b.context);
  }
});

test('a move from a stale view — dragged or by keyboard — meets the stale-edit check: a clear message, and the calendar shows the server’s project', async ({
  browser,
}) => {
  const mover = await newSignedInContext(browser, newUser('stale'));
  // The same member in another browser (only a project's creator or an admin edits it): the edit the
  // calendar did not see.
  const elsewhere = await browser.newContext();
  const login = await elsewhere.request.post('/api/auth/login', {
    data: { email: mover.user.email, password: mover.user.password },
  });
  expect(login.ok()).toBe(true);
  const editElsewhere = async (id: string, change: { name?: string; dueDate?: string }) => {
    const current = (await (await elsewhere.request.get(`/api/projects/${id}`)).json()) as {
      project: ApiProject & { version: number };
    };
    const { project } = current;
    const response = await elsewhere.request.patch(`/api/projects/${id}`, {
      data: {
        name: change.name ?? project.name,
        details: project.details,
        dueDate: change.dueDate ?? project.dueDate,
        category: project.category,
        assignedUserIds: project.assignedUserIds,
        version: project.version,
      },
    });
    expect(response.status()).toBe(200);
  };
  const conflictMessage = mover.page
    .getByRole('alert')
    .filter({ hasText: 'Someone changed this project meanwhile' });
  try {
    const page = mover.page;
    await page.setViewportSize({ width: 1280, height: 1200 });
    await openCalendar(page);

    // Dragged while a teammate moves it elsewhere: the move's request is held until their edit is in.
    const dragged = await createProjectViaApi(mover.context.request, {
      name: uniqueProjectName('dragged'),
      dueDate: '2032-07-06',
      assignedUserIds: [mover.user.uid],
    });
    const item = dayCell(page, '2032-07-06').locator('.calendar-project', { hasText: dragged.name });
    await expect(item).toBeVisible();
    const held = await holdRequests(page, `**/api/projects/${dragged.id}`);
    await dayCell(page, '2032-07-27').scrollIntoViewIfNeeded();
    await item.dragTo(dayCell(page, '2032-07-27'), { sourcePosition: { x: 3, y: 6 } });
    await expect(dayCell(page, '2032-07-27').getByText(dragged.name)).toBeVisible();
    const renamed = `${dragged.name} renamed`;
    await editElsewhere(dragged.id, { name: renamed, dueDate: '2032-07-13' });
    held.release();
    await expect(conflictMessage).toBeVisible();
    await expect(dayCell(page, '2032-07-13').getByRole('link', { name: renamed })).toBeVisible();
    await expect(dayCell(page, '2032-07-27').getByText(dragged.name)).toHaveCount(0);
    await expect(dayCell(page, '2032-07-06').getByText(dragged.name)).toHaveCount(0);
    await page.unroute(`**/api/projects/${dragged.id}`);
    // A fresh screen, without the message, so the keyboard's conflict is its own.
    await openCalendar(page);
    await expect(conflictMessage).toHaveCount(0);

    // By keyboard: 'Move' carries the project as it was; a rename meanwhile makes the drop stale.
    const carried = await createProjectViaApi(mover.context.request, {
      name: uniqueProjectName('carried'),
      dueDate: '2032-07-07',
      assignedUserIds: [mover.user.uid],
    });
    const seventh = dayCell(page, '2032-07-07');
    await expect(seventh.getByText(carried.name)).toBeVisible();
    await seventh.locator('.calendar-day-number').click();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: `Move ${carried.name}` }).click();
    await expect(seventh).toBeFocused();
    const carriedRenamed = `${carried.name} renamed`;
    await editElsewhere(carried.id, { name: carriedRenamed });
    await expect(seventh.getByRole('link', { name: carriedRenamed })).toBeVisible();
    await page.keyboard.press('ArrowRight');
    await expect(dayCell(page, '2032-07-08')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(conflictMessage).toBeVisible();
    // The teammate's name stands, on the day the server has.
    await expect(seventh.getByRole('link', { name: carriedRenamed })).toBeVisible();
    await expect(dayCell(page, '2032-07-08').getByText(carried.name)).toHaveCount(0);
    const onServer = (await (await elsewhere.request.get(`/api/projects/${carried.id}`)).json()) as {
      project: ApiProject;
    };
    expect(onServer.project).toMatchObject({ name: carriedRenamed, dueDate: '2032-07-07' });
  } finally {
    await closeAll(mover.context, elsewhere);
  }
});

test('the grid is one tab stop and arrow keys, Home/End and PageUp/PageDown move between days, in the address', async ({
  signedIn,
}) => {
  const { page } = signedIn;
  await openCalendar(page);
  const cell = dayCell(page, MONTH_DAY);
  await cell.locator('.calendar-day-number').click();
  await expect(cell).toHaveAttribute('tabindex', '0');
  await expect(page.locator('[role="gridcell"][tabindex="0"]')).toHaveCount(1);
  await page.keyboard.press('ArrowDown');
  await expect(dayCell(page, '2032-07-21')).toBeFocused();
  await page.keyboard.press('Home');
  await expect(dayCell(page, '2032-07-19')).toBeFocused();
  await page.keyboard.press('End');
  await expect(dayCell(page, '2032-07-25')).toBeFocused();
  await page.keyboard.press('PageDown');
  await expect(page.getByRole('heading', { name: 'August 2032' })).toBeVisible();
  await expect(dayCell(page, '2032-08-25')).toBeFocused();
  await expect(page).toHaveURL(/day=2032-08-25/);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'August 2032' })).toBeVisible();
});

test('a day with more projects than its cell shows says how many, and its full list opens by keyboard, where a hidden one moves; axe on the open list', async ({
  browser,
}) => {
  const a = await newSignedInContext(browser, newUser('more'));
  try {
    const day = '2034-05-10';
    const names = Array.from({ length: 5 }, (_, index) => uniqueProjectName(`more${index}`));
    for (const name of names) {
      await createProjectViaApi(a.context.request, { name, dueDate: day, assignedUserIds: [a.user.uid] });
    }
    await openCalendar(a.page, `?day=${day}`);
    const cell = dayCell(a.page, day);
    // A month cell shows three and '+2 more'; its name still counts all five.
    await expect(cell.locator('.calendar-project')).toHaveCount(3);
    await expect(cell.getByRole('button', { name: '+2 more' })).toBeVisible();
    await expect(cell).toHaveAttribute('aria-label', /, 5 projects due$/);
    const hidden: string[] = [];
    for (const name of names) if ((await cell.getByText(name).count()) === 0) hidden.push(name);
    expect(hidden).toHaveLength(2);
    const carried = hidden[0] ?? '';

    await cell.locator('.calendar-day-number').click();
    await expect(cell).toBeFocused();
    await a.page.keyboard.press('Enter');
    const panel = a.page.getByRole('region', { name: 'Due Wednesday, May 10, 2034' });
    await expect(panel.getByRole('heading')).toBeFocused();
    await expect(panel.getByRole('link')).toHaveCount(5);
    await expectNoAxeViolations(a.page);

    await panel.getByRole('button', { name: `Move ${carried}` }).focus();
    await a.page.keyboard.press('Enter');
    await expect(cell).toBeFocused();
    await a.page.keyboard.press('ArrowRight');
    await expect(dayCell(a.page, '2034-05-11')).toBeFocused();
    await a.page.keyboard.press('Enter');
    await expect(dayCell(a.page, '2034-05-11').getByText(carried)).toBeVisible();
    await expect(cell).toHaveAttribute('aria-label', /, 4 projects due$/);
    await expect(cell.getByRole('button', { name: '+1 more' })).toBeVisible();
  } finally {
    await closeAll(a.context);
  }
});

test('axe finds nothing on the calendar: month, week and at 320 px (a list of days)', async ({ browser }) => {
  const a = await newSignedInContext(browser, newUser('axe'));
  try {
    const name = uniqueProjectName('axe');
    await createProjectViaApi(a.context.request, {
      name,
      dueDate: '2033-09-15',
      category: 'sales',
      assignedUserIds: [a.user.uid],
    });
    await createProjectViaApi(a.context.request, {
      name: uniqueProjectName('overdue'),
      dueDate: '2020-01-15',
      assignedUserIds: [a.user.uid],
    });
    await openCalendar(a.page, '?day=2033-09-14');
    await expect(dayCell(a.page, '2033-09-15').getByText(name)).toBeVisible();
    await expectNoAxeViolations(a.page);

    await a.page.getByRole('button', { name: 'Week', exact: true }).click();
    await expect(a.page).toHaveURL(/view=week/);
    await expect(a.page.getByRole('heading', { name: 'Week of Monday, September 12, 2033' })).toBeVisible();
    await expect(dayCell(a.page, '2033-09-15').getByText(name)).toBeVisible();
    await expectNoAxeViolations(a.page);

    // An overdue project shows a compact mark, so a narrow cell keeps its name, and says so in words.
    await openCalendar(a.page, '?day=2020-01-15');
    const overdueLink = dayCell(a.page, '2020-01-15').getByRole('link', { name: /^Overdue: overdue/ });
    await expect(overdueLink).toBeVisible();
    await expect(dayCell(a.page, '2020-01-15')).toHaveAttribute('aria-label', /, 1 project due, overdue$/);
    await expect(overdueLink.locator('.calendar-overdue-mark')).toHaveText('!');
    await expect(overdueLink.locator('.calendar-overdue-mark')).toBeVisible();
    await expect(overdueLink.locator('.calendar-overdue-mark')).toHaveAttribute('aria-hidden', 'true');
    await expect(overdueLink.getByText('Overdue:')).toHaveClass('visually-hidden');
    await expectNoAxeViolations(a.page);

    await a.page.setViewportSize({ width: 320, height: 700 });
    await openCalendar(a.page, '?day=2033-09-14');
    await expect(a.page.getByText('Thursday, September 15, 2033')).toBeVisible();
    await expect(dayCell(a.page, '2033-09-16')).toBeHidden();
    await expectNoAxeViolations(a.page);
  } finally {
    await closeAll(a.context);
  }
});
