import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import {
  expect,
  holdRequests,
  newSignedInContext,
  newUser,
  signUpAllViaApi,
  signUpViaApi,
  test,
} from './support/fixtures';
import {
  DASHBOARD_FILTERS,
  cardNames,
  closeAll,
  createForm,
  createProjectViaApi,
  dashboardHeading,
  fillCreateForm,
  holdLiveSocket,
  filterButton,
  listProjectsViaApi,
  newSignedInContextWith,
  openDashboard,
  openProject,
  projectCard,
  projectCards,
  projectCardsNamed,
  projectMessages,
  projectPage,
  uniqueProjectName,
  type DashboardFilter,
} from './support/projects';
import { startOwnServer } from './support/server-process';
import { alertWith } from './support/ui';

/** Marks the page's JavaScript realm; the mark survives anything but a reload or a full navigation. */
async function markNoReload(page: Page): Promise<void> {
  await page.evaluate(() => Object.assign(window, { __e2eNoReload: true }));
}

async function expectNotReloaded(page: Page): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { __e2eNoReload?: boolean }).__e2eNoReload)).toBe(
    true,
  );
}

async function expectPressed(page: Page, current: DashboardFilter): Promise<void> {
  for (const filter of DASHBOARD_FILTERS) {
    await expect(filterButton(page, filter)).toHaveAttribute('aria-pressed', String(filter === current));
  }
}

test.describe('create a project', () => {
  test("a project made with the form appears live on the assignee's open dashboard", async ({ browser }) => {
    // Far-apart time zones: a due day read as a UTC instant would show as Dec 31 in Honolulu.
    const creator = await newSignedInContextWith(browser, newUser('creator'), {
      timezoneId: 'Pacific/Kiritimati',
    });
    const assignee = await newSignedInContextWith(browser, newUser('assignee'), {
      timezoneId: 'Pacific/Honolulu',
    });
    try {
      const name = uniqueProjectName('form project');
      const details = 'Built through the create form.\nSecond line of details.';

      const watcher = assignee.page;
      await openDashboard(watcher);
      await expect(watcher).toHaveTitle('Dashboard · The Dojo');
      await expect(watcher.getByText('Filter by:', { exact: true })).toBeVisible();
      await expectPressed(watcher, 'all');
      await expect(projectCard(watcher, name)).toHaveCount(0);
      await markNoReload(watcher);

      const page = creator.page;
      await page.goto('/');
      await page.getByRole('link', { name: 'New Project', exact: true }).click();
      await expect(page).toHaveURL('/create');
      await expect(createForm.heading(page)).toBeVisible();
      await expect(page).toHaveTitle('Create a new Project · The Dojo');
      await expect(page.getByText('Select...', { exact: true })).toHaveCount(2);

      await fillCreateForm(page, {
        name,
        details,
        dueDate: '2031-01-01',
        category: ['Des', 'Design'],
        assignees: [assignee.user.displayName],
      });
      await expect(createForm.name(page)).toHaveValue(name);
      await expect(createForm.dueDate(page)).toHaveValue('2031-01-01');
      const form = createForm.form(page);
      await expect(form.getByText('Design', { exact: true })).toBeVisible();
      await expect(form.getByText(assignee.user.displayName, { exact: true })).toBeVisible();
      await expect(form.getByText('Select...', { exact: true })).toHaveCount(0);
      await createForm.submit(page).click();
      await expect(page).toHaveURL('/');
      await expect(dashboardHeading(page)).toBeVisible();

      // No reload on the assignee's side: the live subscription brings the card.
      const card = projectCard(watcher, name);
      await expect(card).toBeVisible();
      await expect(card).toContainText('Due by Wed Jan 01 2031');
      await expect(card.getByText('Assigned to:', { exact: true })).toBeVisible();
      // The assignee's name is text in the card's list (the picture beside it is decorative).
      await expect(card.getByRole('listitem')).toHaveText([assignee.user.displayName]);
      await expectNotReloaded(watcher);

      const [saved] = (await listProjectsViaApi(assignee.context.request)).filter((p) => p.name === name);
      expect(saved).toMatchObject({
        name,
        details,
        dueDate: '2031-01-01',
        category: 'design',
        assignedUserIds: [assignee.user.uid],
        createdBy: { id: creator.user.uid, displayName: creator.user.displayName },
      });
      await expect(card.getByRole('link')).toHaveAttribute('href', `/projects/${saved?.id}`);
      await expect(projectCard(page, name)).toContainText('Due by Wed Jan 01 2031');

      // The card leads to the project's page, with the same calendar day.
      await card.getByRole('link').click();
      await expect(watcher).toHaveURL(`/projects/${saved?.id}`);
      await expect(projectPage.heading(watcher, name)).toBeVisible();
      await expect(watcher).toHaveTitle(`${name} · The Dojo`);
      await expect(watcher.getByText('Project due by Wed Jan 01 2031', { exact: true })).toBeVisible();
      await expect(watcher.getByText('Project assigned to:', { exact: true })).toBeVisible();
      await expect(watcher.getByText('Second line of details.')).toBeVisible();
      await expect(
        watcher
          .getByRole('region', { name })
          .getByRole('listitem')
          .filter({ hasText: assignee.user.displayName }),
      ).toHaveCount(1);
    } finally {
      await closeAll(creator.context, assignee.context);
    }
  });

  test('empty submit shows every message; a double click creates exactly one project', async ({
    signedIn,
    context,
  }) => {
    const { page, user } = signedIn;
    await page.goto('/create');
    await expect(createForm.heading(page)).toBeVisible();

    await createForm.submit(page).click();
    await expect(createForm.alert(page)).toHaveCount(1);
    for (const message of [
      projectMessages.categoryRequired,
      projectMessages.assigneesRequired,
      projectMessages.nameRequired,
      projectMessages.detailsRequired,
      projectMessages.dueDateRequired,
    ]) {
      await expect(alertWith(page, message)).toBeVisible();
    }
    await expect(page).toHaveURL('/create');

    const name = uniqueProjectName('double click');
    await fillCreateForm(page, {
      name,
      details: 'Submitted twice in a row.',
      dueDate: '2030-05-20',
      category: ['Sal', 'Sales'],
      assignees: [user.displayName],
    });
    // Every field is filled now, so no message is left.
    await expect(createForm.alert(page)).toHaveCount(0);

    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/projects') {
        posts.push(request.url());
      }
    });
    const create = await holdRequests(page, '**/api/projects');
    await createForm.submit(page).dblclick();
    await expect(createForm.submit(page)).toBeDisabled();
    create.release();
    await expect(page).toHaveURL('/');
    await expect(projectCard(page, name)).toBeVisible();

    expect(posts).toHaveLength(1);
    const saved = (await listProjectsViaApi(context.request)).filter((project) => project.name === name);
    expect(saved).toHaveLength(1);
    await expect(projectCard(page, name)).toHaveCount(1);
  });

  test("'Assign to' finds anyone on the team by part of the name, beyond the first page", async ({
    browser,
  }) => {
    // A server of its own: fifty names that sort first would fill the users panel's first page on the
    // shared server, so another test would look there for its own member in vain.
    const tempDir = mkdtempSync(path.join(os.tmpdir(), 'dojo-e2e-assign-'));
    const server = await startOwnServer(tempDir);
    const context = await browser.newContext({ baseURL: server.url });
    try {
      // 52 signups are 52 scrypt hashes on the server: CPU the two workers' tests share, whatever the batching.
      // 50 names that sort first fill the select's first page; the one we want sorts last.
      const tag = newUser().displayName.split(' ')[1] ?? '';
      const fillers = Array.from({ length: 50 }, (_, index) => ({
        ...newUser(),
        displayName: `A filler ${index} ${tag}`,
      }));
      const [wanted] = await Promise.all([
        signUpViaApi(context.request, { ...newUser(), displayName: `zoë Ångström ${tag}` }),
        signUpAllViaApi(context.request, fillers),
      ]);
      // Each signup signs its browser in: the last one is the member who assigns.
      await signUpViaApi(context.request, newUser('assigner'));
      const page = await context.newPage();
      await page.goto('/create');
      await createForm.assignees(page).click();
      await expect(page.getByRole('option', { name: `A filler 0 ${tag}`, exact: true })).toBeVisible();
      await expect(page.getByRole('option', { name: wanted.displayName, exact: true })).toHaveCount(0);

      // Typed without the accents: the server's search ignores case and accents.
      await createForm.assignees(page).pressSequentially(`angstrom ${tag}`);
      const option = page.getByRole('option', { name: wanted.displayName, exact: true });
      await expect(option).toBeVisible();
      await expect(page.getByRole('option')).toHaveCount(1);
      await createForm.assignees(page).press('Enter');
      await expect(createForm.form(page).getByText(wanted.displayName, { exact: true })).toBeVisible();

      await createForm.assignees(page).pressSequentially(`nobody by this name ${tag}`);
      await expect(page.getByText('No options', { exact: true })).toBeVisible();
    } finally {
      await closeAll(context);
      await server.stop();
      rmSync(tempDir, { recursive: true, force: true });
    }
  });
});

test("'Loading...' shows until the first live snapshot, on the dashboard and a project's page", async ({
  signedIn,
  context,
}) => {
  const { page, user } = signedIn;
  const project = await createProjectViaApi(context.request, {
    name: uniqueProjectName('loading'),
    assignedUserIds: [user.uid],
  });
  const live = await holdLiveSocket(page);
  await page.goto('/');
  await expect(dashboardHeading(page)).toBeVisible();
  await expect(page.getByText(projectMessages.loading, { exact: true })).toBeVisible();
  await expect(page.getByText(projectMessages.noProjects, { exact: true })).toHaveCount(0);
  await expect(projectCards(page)).toHaveCount(0);
  live.release();
  await expect(projectCard(page, project.name)).toBeVisible();
  await expect(page.getByText(projectMessages.loading, { exact: true })).toHaveCount(0);

  const held = await holdLiveSocket(page);
  await page.goto(`/projects/${project.id}`);
  await expect(page.getByText(projectMessages.loading, { exact: true })).toBeVisible();
  await expect(projectPage.heading(page, project.name)).toHaveCount(0);
  held.release();
  await expect(projectPage.heading(page, project.name)).toBeVisible();
  await expect(page.getByText(projectMessages.loading, { exact: true })).toHaveCount(0);
});

test('each dashboard filter shows exactly its projects and moves aria-pressed', async ({ browser }) => {
  const creator = await newSignedInContext(browser, newUser('seeder'));
  const viewer = await newSignedInContext(browser, newUser('filterer'));
  try {
    const page = viewer.page;
    await openDashboard(page);
    await expectPressed(page, 'all');

    // A brand-new user has nothing assigned: 'mine' is empty.
    await filterButton(page, 'mine').click();
    await expectPressed(page, 'mine');
    await expect(page.getByText(projectMessages.noProjects, { exact: true })).toBeVisible();
    await expect(projectCards(page)).toHaveCount(0);

    const tag = uniqueProjectName('filters');
    const a = creator.user.uid;
    const b = viewer.user.uid;
    const seeds = [
      { name: `${tag} dev`, category: 'development', assignedUserIds: [b] },
      { name: `${tag} design`, category: 'design', assignedUserIds: [a] },
      { name: `${tag} marketing`, category: 'marketing', assignedUserIds: [a] },
      { name: `${tag} sales`, category: 'sales', assignedUserIds: [a, b] },
    ] as const;
    for (const seed of seeds) {
      await createProjectViaApi(creator.context.request, {
        ...seed,
        assignedUserIds: [...seed.assignedUserIds],
      });
    }
    const [dev, design, marketing, sales] = seeds.map((seed) => seed.name);

    // The viewer's 'mine' list follows live: the two projects assigned to them, newest first, nothing else.
    await expect(cardNames(projectCards(page))).toHaveText([sales!, dev!]);
    await expect(page.getByText(projectMessages.noProjects, { exact: true })).toHaveCount(0);

    // Other tests add projects to the same server at the same time, so category lists are checked on this
    // test's own (tagged) projects; 'mine' is checked whole.
    const expected: Array<[DashboardFilter, string[]]> = [
      ['all', [sales!, marketing!, design!, dev!]],
      ['development', [dev!]],
      ['design', [design!]],
      ['marketing', [marketing!]],
      ['sales', [sales!]],
      ['mine', [sales!, dev!]],
    ];
    for (const [filter, names] of expected) {
      await filterButton(page, filter).click();
      await expectPressed(page, filter);
      await expect(cardNames(projectCardsNamed(page, tag))).toHaveText(names);
      if (filter === 'mine') await expect(projectCards(page)).toHaveCount(names.length);
    }
    // The assignee sees their own avatar on each card of 'mine', their name beside it as text.
    const assignee = (name: string, displayName: string) =>
      projectCard(page, name).getByRole('listitem').filter({ hasText: displayName });
    await expect(assignee(dev!, viewer.user.displayName).locator('.avatar')).toBeVisible();
    await expect(assignee(sales!, creator.user.displayName).locator('.avatar')).toBeVisible();
  } finally {
    await closeAll(creator.context, viewer.context);
  }
});

test.describe('mark as complete', () => {
  test('only the creator may complete; it vanishes live from dashboards and the open page', async ({
    browser,
  }) => {
    const creator = await newSignedInContext(browser, newUser('owner'));
    const other = await newSignedInContext(browser, newUser('teammate'));
    try {
      const project = await createProjectViaApi(creator.context.request, {
        name: uniqueProjectName('to complete'),
        assignedUserIds: [other.user.uid],
      });

      // The teammate watches both the dashboard and the project's page.
      const otherDashboard = other.page;
      await openDashboard(otherDashboard);
      await expect(projectCard(otherDashboard, project.name)).toBeVisible();
      const otherProject = await other.context.newPage();
      await openProject(otherProject, project);
      await expect(projectPage.addComment(otherProject)).toBeVisible();
      await expect(projectPage.completeButton(otherProject)).toHaveCount(0);
      await markNoReload(otherDashboard);
      await markNoReload(otherProject);

      // The server refuses the teammate too, and the project stays.
      const refused = await other.context.request.delete(`/api/projects/${project.id}`);
      expect(refused.status()).toBe(403);
      expect((await other.context.request.get(`/api/projects/${project.id}`)).status()).toBe(200);
      await expect(projectPage.heading(otherProject, project.name)).toBeVisible();

      const page = creator.page;
      await openProject(page, project);
      const complete = projectPage.completeButton(page);
      await expect(complete).toBeVisible();
      const deletion = await holdRequests(page, `**/api/projects/${project.id}`);
      await complete.click();
      await expect(complete).toBeDisabled();
      deletion.release();

      await expect(page).toHaveURL('/');
      await expect(dashboardHeading(page)).toBeVisible();
      await expect(page.getByText(projectMessages.loading, { exact: true })).toHaveCount(0);
      await expect(projectCard(page, project.name)).toHaveCount(0);

      await expect(projectCard(otherDashboard, project.name)).toHaveCount(0);
      await expect(alertWith(otherProject, projectMessages.noSuchDocument)).toBeVisible();
      await expect(projectPage.heading(otherProject, project.name)).toHaveCount(0);
      await expectNotReloaded(otherDashboard);
      await expectNotReloaded(otherProject);
      expect((await other.context.request.get(`/api/projects/${project.id}`)).status()).toBe(404);
    } finally {
      await closeAll(creator.context, other.context);
    }
  });

  test("a failed completion shows 'could not delete' and keeps the project", async ({
    signedIn,
    context,
  }) => {
    const { page, user } = signedIn;
    const project = await createProjectViaApi(context.request, {
      name: uniqueProjectName('not completed'),
      assignedUserIds: [user.uid],
    });
    await openProject(page, project);
    // The request never reaches the server (a lost connection).
    await page.route(`**/api/projects/${project.id}`, (route) =>
      route.request().method() === 'DELETE' ? route.abort('connectionreset') : route.continue(),
    );
    await projectPage.completeButton(page).click();
    await expect(alertWith(page, projectMessages.deleteFailed)).toBeVisible();
    await expect(page).toHaveURL(`/projects/${project.id}`);
    await expect(projectPage.heading(page, project.name)).toBeVisible();
    await expect(projectPage.completeButton(page)).toBeEnabled();
    expect((await context.request.get(`/api/projects/${project.id}`)).status()).toBe(200);
  });

  test("a project id that does not exist shows 'No such document exists'", async ({ signedIn }) => {
    const { page } = signedIn;
    await page.goto('/projects/no-such-project-id');
    await expect(alertWith(page, projectMessages.noSuchDocument)).toBeVisible();
    await expect(projectPage.commentsHeading(page)).toHaveCount(0);
  });
});
