import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { messages } from '../src/common/messages';
import { expectNoAxeViolations } from './support/axe';
import { expect, newSignedInContext, newUser, signUpViaApi, test } from './support/fixtures';
import {
  closeAll,
  createForm,
  createProjectViaApi,
  filterButton,
  openDashboard,
  openProject,
  projectCard,
  projectPage,
  uniqueProjectName,
  type ApiProject,
} from './support/projects';
import { startOwnServer } from './support/server-process';
import { alertWith } from './support/ui';

/** Edit a project and the Completed view (issue 12, points 2 and 3). */

type VersionedProject = ApiProject & { version: number };

const editPage = {
  heading: (page: Page, name: string) => page.getByRole('heading', { level: 1, name: `Edit ${name}` }),
  save: (page: Page) => page.getByRole('button', { name: 'Save changes', exact: true }),
  changedMeanwhile: (page: Page) =>
    page.getByRole('status').filter({ hasText: 'This project has been changed since you started editing.' }),
  unsaved: (page: Page) => page.getByRole('region', { name: 'Your changes, not saved', exact: true }),
};

const completedPage = {
  heading: (page: Page) => page.getByRole('heading', { level: 1, name: 'Completed projects', exact: true }),
  /** The completed project called `name`. */
  item: (page: Page, name: string) => page.getByRole('article', { name, exact: true }),
};

async function markNoReload(page: Page): Promise<void> {
  await page.evaluate(() => Object.assign(window, { __e2eNoReload: true }));
}

async function expectNotReloaded(page: Page): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { __e2eNoReload?: boolean }).__e2eNoReload)).toBe(
    true,
  );
}

/** The dashboard with the 'mine' filter: a few projects, whatever the other tests add meanwhile. */
async function openMyDashboard(page: Page): Promise<void> {
  await openDashboard(page);
  await filterButton(page, 'mine').click();
  await expect(filterButton(page, 'mine')).toHaveAttribute('aria-pressed', 'true');
}

/** Presses Tab until `target` has the focus: it is reachable with the keyboard. */
async function tabTo(page: Page, target: Locator, maxPresses = 40): Promise<void> {
  for (let presses = 0; presses < maxPresses; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

async function openEditPage(page: Page, project: Pick<ApiProject, 'id' | 'name'>): Promise<void> {
  await page.goto(`/projects/${encodeURIComponent(project.id)}/edit`);
  await expect(editPage.heading(page, project.name)).toBeVisible();
  await expect(createForm.name(page)).toHaveValue(project.name);
}

test.describe('edit a project', () => {
  test("the creator's edit is seen live on another user's project page and dashboard", async ({
    browser,
  }) => {
    const creator = await newSignedInContext(browser, newUser('editor'));
    const watcher = await newSignedInContext(browser, newUser('watcher'));
    try {
      const project = await createProjectViaApi(creator.context.request, {
        details: 'Details before the edit.',
        dueDate: '2031-03-04',
        category: 'design',
        assignedUserIds: [creator.user.uid, watcher.user.uid],
      });

      const watcherDashboard = await watcher.context.newPage();
      await openMyDashboard(watcherDashboard);
      await expect(projectCard(watcherDashboard, project.name)).toBeVisible();
      await openProject(watcher.page, project);
      await markNoReload(watcher.page);
      await markNoReload(watcherDashboard);

      const page = creator.page;
      await openProject(page, project);
      await page.getByRole('link', { name: 'Edit', exact: true }).click();
      await expect(page).toHaveURL(`/projects/${project.id}/edit`);
      await expect(page).toHaveTitle(`Edit ${project.name} · The Dojo`);
      // The create form's fields, filled with the project.
      await expect(createForm.name(page)).toHaveValue(project.name);
      await expect(createForm.details(page)).toHaveValue('Details before the edit.');
      await expect(createForm.dueDate(page)).toHaveValue('2031-03-04');
      const form = page.locator('form').filter({ has: editPage.save(page) });
      await expect(form.getByText('Design', { exact: true })).toBeVisible();
      await expect(form.getByText(creator.user.displayName, { exact: true })).toBeVisible();
      await expect(form.getByText(watcher.user.displayName, { exact: true })).toBeVisible();

      // The create form's rules and messages.
      await createForm.name(page).fill('   ');
      await editPage.save(page).click();
      await expect(alertWith(page, 'Please enter a project name.')).toBeVisible();
      await expect(createForm.name(page)).toBeFocused();

      const renamed = uniqueProjectName('renamed');
      await createForm.name(page).fill(renamed);
      await createForm.details(page).fill('Details after the edit.');
      await editPage.save(page).click();
      await expect(page).toHaveURL(`/projects/${project.id}`);
      await expect(projectPage.heading(page, renamed)).toBeVisible();

      // The other user sees it without reloading, on the open project page and on the dashboard.
      await expect(projectPage.heading(watcher.page, renamed)).toBeVisible();
      await expect(watcher.page.getByText('Details after the edit.', { exact: true })).toBeVisible();
      await expect(projectCard(watcherDashboard, renamed)).toBeVisible();
      await expect(projectCard(watcherDashboard, project.name)).toHaveCount(0);
      await expectNotReloaded(watcher.page);
      await expectNotReloaded(watcherDashboard);
    } finally {
      await closeAll(creator.context, watcher.context);
    }
  });

  test('a stale edit is refused with the message, shows the newer version, and saving again works', async ({
    browser,
  }) => {
    const creator = await newSignedInContext(browser, newUser('stale'));
    try {
      const project = (await createProjectViaApi(creator.context.request, {
        assignedUserIds: [creator.user.uid],
      })) as VersionedProject;
      const page = creator.page;
      await openEditPage(page, project);
      await expectNoAxeViolations(page);

      const mine = uniqueProjectName('mine');
      await createForm.name(page).fill(mine);

      // Someone saves first (here the same account, through the API, from the version the form started at).
      const theirs = uniqueProjectName('theirs');
      const response = await creator.context.request.patch(`/api/projects/${project.id}`, {
        data: {
          name: theirs,
          details: 'Their details.',
          dueDate: project.dueDate,
          category: project.category,
          assignedUserIds: project.assignedUserIds,
          version: project.version,
        },
      });
      expect(response.status()).toBe(200);
      // The open form hears of it live, and keeps what was typed.
      await expect(editPage.changedMeanwhile(page)).toBeVisible();
      await expect(createForm.name(page)).toHaveValue(mine);

      await editPage.save(page).click();
      await expect(alertWith(page, messages.projectChanged)).toBeVisible();
      await expect(page).toHaveURL(`/projects/${project.id}/edit`);
      // The form now holds the newer version; what was typed stays in view until the user chooses.
      await expect(createForm.name(page)).toHaveValue(theirs);
      await expect(createForm.details(page)).toHaveValue('Their details.');
      // Only the fields the user changed are theirs to put back.
      await expect(editPage.unsaved(page)).toContainText(mine);
      await expect(editPage.unsaved(page)).not.toContainText('Project Details');
      await expectNoAxeViolations(page);

      // Put back what was typed (over the newer version, so their details stay), and save again: it goes
      // through on the newer version.
      await editPage.unsaved(page).getByRole('button', { name: 'Put my changes back in the form' }).click();
      await expect(createForm.name(page)).toHaveValue(mine);
      await expect(createForm.details(page)).toHaveValue('Their details.');
      await expect(editPage.unsaved(page)).toHaveCount(0);
      await editPage.save(page).click();
      await expect(page).toHaveURL(`/projects/${project.id}`);
      await expect(projectPage.heading(page, mine)).toBeVisible();
      await expect(page.getByText('Their details.', { exact: true })).toBeVisible();
    } finally {
      await closeAll(creator.context);
    }
  });

  test("a project completed while it is being edited shows 'No such document exists'", async ({
    browser,
  }) => {
    const creator = await newSignedInContext(browser, newUser('gone'));
    try {
      const project = await createProjectViaApi(creator.context.request, {
        assignedUserIds: [creator.user.uid],
      });
      await openEditPage(creator.page, project);
      const response = await creator.context.request.delete(`/api/projects/${project.id}`);
      expect(response.status()).toBe(204);
      await expect(alertWith(creator.page, messages.noSuchDocument)).toBeVisible();
      await expect(createForm.name(creator.page)).toHaveCount(0);
    } finally {
      await closeAll(creator.context);
    }
  });
});

test.describe('completed projects', () => {
  test("a completed project's old link says who completed it and leads to the Completed view", async ({
    browser,
  }) => {
    const creator = await newSignedInContext(browser, newUser('oldlink'));
    try {
      const project = await createProjectViaApi(creator.context.request, {
        assignedUserIds: [creator.user.uid],
      });
      const response = await creator.context.request.delete(`/api/projects/${project.id}`);
      expect(response.status()).toBe(204);
      await creator.page.goto(`/projects/${encodeURIComponent(project.id)}`);
      await expect(creator.page.getByRole('heading', { level: 1, name: project.name })).toBeVisible();
      await expect(creator.page.locator('.project-completed-notice')).toContainText(
        `This project was completed by ${creator.user.displayName}`,
      );
      await expectNoAxeViolations(creator.page);
      await creator.page.getByRole('link', { name: 'See completed projects' }).click();
      await expect(creator.page).toHaveURL(/\/completed$/);
    } finally {
      await closeAll(creator.context);
    }
  });

  test("complete → listed under Completed → reopen → back on both users' dashboards, live", async ({
    browser,
  }) => {
    const creator = await newSignedInContext(browser, newUser('completer'));
    const other = await newSignedInContext(browser, newUser('teammate'));
    try {
      const project = await createProjectViaApi(creator.context.request, {
        dueDate: '2032-01-20',
        category: 'marketing',
        assignedUserIds: [creator.user.uid, other.user.uid],
      });
      const creatorDashboard = await creator.context.newPage();
      await openMyDashboard(creatorDashboard);
      await openMyDashboard(other.page);
      await expect(projectCard(other.page, project.name)).toBeVisible();
      await expect(projectCard(creatorDashboard, project.name)).toBeVisible();
      await markNoReload(other.page);
      await markNoReload(creatorDashboard);

      const page = creator.page;
      await openProject(page, project);
      await projectPage.completeButton(page).click();
      await expect(page).toHaveURL('/');
      await expect(projectCard(other.page, project.name)).toHaveCount(0);
      await expect(projectCard(creatorDashboard, project.name)).toHaveCount(0);

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Completed' }).click();
      await expect(page).toHaveURL('/completed');
      await expect(completedPage.heading(page)).toBeVisible();
      await expect(page).toHaveTitle('Completed projects · The Dojo');
      const item = completedPage.item(page, project.name);
      await expect(item).toContainText('Category: Marketing');
      await expect(item).toContainText(`Due by ${new Date(2032, 0, 20).toDateString()}`);
      await expect(item).toContainText(`Completed by ${creator.user.displayName}`);
      await expect(item.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}T/);
      await expectNoAxeViolations(page);

      // Keyboard: Tab reaches the project's 'Reopen'; Enter reopens it.
      const reopen = item.getByRole('button', { name: 'Reopen', exact: true });
      await completedPage.heading(page).focus();
      await tabTo(page, reopen);
      await page.keyboard.press('Enter');
      await expect(
        page.getByRole('status').filter({ hasText: `"${project.name}" is open again` }),
      ).toBeVisible();
      await expect(item).toHaveCount(0);
      await expect(completedPage.heading(page)).toBeFocused();

      // Back on both dashboards, without a reload.
      await expect(projectCard(other.page, project.name)).toBeVisible();
      await expect(projectCard(creatorDashboard, project.name)).toBeVisible();
      await expectNotReloaded(other.page);
      await expectNotReloaded(creatorDashboard);
      await openProject(page, project);
    } finally {
      await closeAll(creator.context, other.context);
    }
  });

  test('delete permanently asks first, then the project is gone for good', async ({ browser }) => {
    const creator = await newSignedInContext(browser, newUser('deleter'));
    try {
      const project = await createProjectViaApi(creator.context.request, {
        assignedUserIds: [creator.user.uid],
      });
      expect((await creator.context.request.delete(`/api/projects/${project.id}`)).status()).toBe(204);

      const page = creator.page;
      await page.goto('/completed');
      const item = completedPage.item(page, project.name);
      await expect(item).toBeVisible();
      const deleteButton = item.getByRole('button', { name: 'Delete permanently', exact: true });

      // The question, by keyboard: focus goes to its safe answer, and Escape puts it away.
      await completedPage.heading(page).focus();
      await tabTo(page, deleteButton);
      await page.keyboard.press('Enter');
      const question = item.getByRole('group', { name: `Delete "${project.name}" permanently?` });
      await expect(question).toContainText('The project and all its comments will be gone for good.');
      await expect(question.getByRole('button', { name: 'Cancel', exact: true })).toBeFocused();
      await expectNoAxeViolations(page);
      await page.keyboard.press('Escape');
      await expect(question).toHaveCount(0);
      await expect(deleteButton).toBeFocused();

      await deleteButton.click();
      await question.getByRole('button', { name: 'Yes, delete for good', exact: true }).click();
      await expect(
        page.getByRole('status').filter({ hasText: `"${project.name}" and its comments are deleted` }),
      ).toBeVisible();
      await expect(item).toHaveCount(0);

      // Gone for good: not completed, not open.
      const completed = await creator.context.request.get('/api/completed-projects', {
        params: { limit: 200 },
      });
      const listed = ((await completed.json()) as { projects: ApiProject[] }).projects;
      expect(listed.map((row) => row.id)).not.toContain(project.id);
      expect((await creator.context.request.get(`/api/projects/${project.id}`)).status()).toBe(404);
      expect(
        (await creator.context.request.post(`/api/completed-projects/${project.id}/reopen`)).status(),
      ).toBe(404);
    } finally {
      await closeAll(creator.context);
    }
  });

  test("'Show more' adds the next page once and moves focus to its first project", async ({ browser }) => {
    // A server of its own: the 51 completions below would push the other tests' just-completed projects
    // off the shared server's first page while those tests look for them there.
    const tempDir = mkdtempSync(path.join(os.tmpdir(), 'dojo-e2e-pager-'));
    const server = await startOwnServer(tempDir);
    const context = await browser.newContext({ baseURL: server.url });
    try {
      const request = context.request;
      const creator = await signUpViaApi(request, newUser('pager'));
      // One more than the first page (50), so a second page exists.
      for (let batch = 0; batch < 51; batch += 17) {
        await Promise.all(
          Array.from({ length: 17 }, async () => {
            const project = await createProjectViaApi(request, { assignedUserIds: [creator.uid] });
            expect((await request.delete(`/api/projects/${project.id}`)).status()).toBe(204);
          }),
        );
      }

      const page = await context.newPage();
      await page.goto('/completed');
      const names = page.locator('.completed-list').getByRole('heading', { level: 2 });
      await expect(names).toHaveCount(50);
      await page.getByRole('button', { name: 'Show more', exact: true }).click();
      await expect(names.nth(50)).toBeFocused();
      const shown = await names.allTextContents();
      expect(shown).toHaveLength(51);
      expect(new Set(shown).size).toBe(shown.length);
    } finally {
      await closeAll(context);
      await server.stop();
      rmSync(tempDir, { recursive: true, force: true });
    }
  });
});

test('who may edit, reopen and delete: the creator and admins, not other members', async ({ browser }) => {
  // A server of its own: its first signup is the admin, so the roles are known.
  const tempDir = mkdtempSync(path.join(os.tmpdir(), 'dojo-e2e-edit-'));
  const server = await startOwnServer(tempDir);
  const adminContext = await browser.newContext({ baseURL: server.url });
  const memberContext = await browser.newContext({ baseURL: server.url });
  try {
    const admin = await signUpViaApi(adminContext.request, newUser('admin'));
    const member = await signUpViaApi(memberContext.request, newUser('member'));
    const adminPage = await adminContext.newPage();
    const memberPage = await memberContext.newPage();
    const byAdmin = await createProjectViaApi(adminContext.request, {
      assignedUserIds: [admin.uid, member.uid],
    });
    const byMember = await createProjectViaApi(memberContext.request, { assignedUserIds: [member.uid] });

    // A member who did not create it: no 'Edit', and the edit page says why.
    await openProject(memberPage, byAdmin);
    await expect(memberPage.getByRole('link', { name: 'Edit', exact: true })).toHaveCount(0);
    await memberPage.goto(`/projects/${byAdmin.id}/edit`);
    await expect(alertWith(memberPage, messages.onlyCreatorEdits)).toBeVisible();
    await expect(createForm.name(memberPage)).toHaveCount(0);

    // An admin may edit a member's project.
    await openProject(adminPage, byMember);
    await adminPage.getByRole('link', { name: 'Edit', exact: true }).click();
    await expect(createForm.name(adminPage)).toHaveValue(byMember.name);

    // Completed: the member sees the admin's project but cannot reopen or delete it.
    expect((await adminContext.request.delete(`/api/projects/${byAdmin.id}`)).status()).toBe(204);
    await memberPage.goto('/completed');
    const item = completedPage.item(memberPage, byAdmin.name);
    await expect(item).toContainText(`Completed by ${admin.displayName}`);
    await expect(item.getByRole('button')).toHaveCount(0);
    await adminPage.goto('/completed');
    await expect(
      completedPage.item(adminPage, byAdmin.name).getByRole('button', { name: 'Reopen', exact: true }),
    ).toBeVisible();
  } finally {
    await closeAll(adminContext, memberContext);
    await server.stop();
    rmSync(tempDir, { recursive: true, force: true });
  }
});
