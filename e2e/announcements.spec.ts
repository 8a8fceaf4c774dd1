import type { Locator, Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { pngFile, svgFile } from './support/files';
import { expect, holdRequests, newSignedInContext, newUser, signUpViaApi, test } from './support/fixtures';
import {
  addCommentViaApi,
  closeAll,
  createForm,
  createProjectViaApi,
  earlyUser,
  fillCreateForm,
  filterButton,
  openDashboard,
  openProject,
  projectCard,
  projectMessages,
  projectPage,
  uniqueProjectName,
} from './support/projects';
import { alertWith, fillLoginForm, fillSignupForm, navbar, userRow } from './support/ui';

/**
 * Issue 16: a screen reader user can follow the app. These tests read what assistive technology gets: the
 * accessibility tree (roles, names, descriptions, the live region's text) and `document.activeElement`.
 */

/** The app's one live region. */
const announcer = (page: Page): Locator => page.getByRole('status', { name: 'Announcements', exact: true });

/** 'Ana is online.', or Ana among others: 'Bo and Ana are online.' */
const presence = (name: string, state: 'online' | 'offline'): RegExp =>
  new RegExp(`${name}[^.]* (is|are) ${state}\\.`);

/** What has focus, as assistive technology sees it: its tag, heading level and text. */
function activeElement(page: Page): Promise<string> {
  return page.evaluate(() => {
    const active = document.activeElement;
    return active ? `${active.tagName.toLowerCase()}: ${active.textContent?.trim() ?? ''}` : 'none';
  });
}

/** After a navigation: focus is on the new screen's own `h1`, and the tab is named after it. */
async function expectLandedOn(page: Page, heading: string, title = heading): Promise<void> {
  const h1 = page.getByRole('heading', { level: 1, name: heading, exact: true });
  await expect(h1).toBeFocused();
  await expect.poll(() => activeElement(page)).toBe(`h1: ${heading}`);
  await expect(page).toHaveTitle(`${title} · The Dojo`);
  // One h1 per screen: the logo is not one.
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
}

test.describe('route changes land on the new page title', () => {
  test('signup, create, open, complete, sidebar links and logout each focus the new h1', async ({
    browser,
  }) => {
    const context = await browser.newContext();
    // Other tests' users come and go meanwhile: with live announcements off, only this user's own
    // confirmations are said, which is what this test reads.
    await context.addInitScript(() => localStorage.setItem('dojo.announceLiveChanges', 'off'));
    try {
      const page = await context.newPage();
      const user = newUser('landing');

      // The first screen of a visit is not focused: the browser announces the page itself.
      await page.goto('/signup');
      await expect(page.getByRole('heading', { level: 1, name: 'sign up' })).toBeVisible();
      await expect(page.getByRole('heading', { level: 1, name: 'sign up' })).not.toBeFocused();
      await expect(navbar.title(page)).toBeVisible();

      // signup → dashboard
      await fillSignupForm(page, user, pngFile());
      await page.getByRole('button', { name: 'Sign up', exact: true }).click();
      await expectLandedOn(page, 'Dashboard');
      await expectNoAxeViolations(page);

      // sidebar link → create
      await page.getByRole('link', { name: 'New Project', exact: true }).click();
      await expectLandedOn(page, 'Create a new Project');

      // Add Project → dashboard, confirmed politely
      const name = uniqueProjectName('landing');
      await fillCreateForm(page, {
        name,
        details: 'Made to follow focus.',
        dueDate: '2031-02-03',
        category: ['Dev', 'Development'],
        assignees: [user.displayName],
      });
      await createForm.submit(page).click();
      await expectLandedOn(page, 'Dashboard');
      await expect(announcer(page)).toHaveText('Project created.');
      await expect(projectCard(page, name)).toBeVisible();

      // card → project
      await projectCard(page, name).getByRole('link').click();
      await expectLandedOn(page, name);
      await expectNoAxeViolations(page);

      // comment → confirmed, focus stays in the form
      await projectPage.commentBox(page).fill('My own comment.');
      await projectPage.addComment(page).click();
      await expect(projectPage.comment(page, 'My own comment.')).toBeVisible();
      await expect(announcer(page)).toHaveText('Comment added.');
      await expect(projectPage.addComment(page)).toBeFocused();

      // Mark as Complete → dashboard, confirmed
      await projectPage.completeButton(page).click();
      await expectLandedOn(page, 'Dashboard');
      await expect(announcer(page)).toHaveText('Project marked as complete. Find it under Completed.');

      // sidebar: account settings, back to the dashboard
      await page.getByRole('link', { name: /Account settings/ }).click();
      await expectLandedOn(page, 'Account settings');
      await expectNoAxeViolations(page);
      await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
      await expectLandedOn(page, 'Dashboard');

      // logout → login; login → dashboard
      await navbar.logoutButton(page).click();
      await expectLandedOn(page, 'login', 'Login');
      await fillLoginForm(page, user.email, user.password);
      await page.getByRole('button', { name: 'Log in', exact: true }).click();
      await expectLandedOn(page, 'Dashboard');
    } finally {
      await context.close();
    }
  });

  test('a filter result is announced', async ({ signedIn }) => {
    const { page } = signedIn;
    await openDashboard(page);
    await filterButton(page, 'mine').click();
    await expect(announcer(page)).toHaveText(`mine: ${projectMessages.noProjects}`);
    // The filter button keeps the focus; the result is told, not focused.
    await expect(filterButton(page, 'mine')).toBeFocused();
  });
});

test.describe('live changes are announced', () => {
  test("another user's project, comment, login and logout are told in the live region", async ({
    browser,
  }) => {
    const watcherSide = await newSignedInContext(browser, earlyUser('Listener'));
    const authorSide = await newSignedInContext(browser, newUser('author'));
    const arrivingContext = await browser.newContext();
    try {
      const watcher = watcherSide.page;
      const arriving = await signUpViaApi(arrivingContext.request, earlyUser('Arriving'));
      // Signed out again at once, so the arrival below is a login.
      await arrivingContext.request.post('/api/auth/logout');

      await openDashboard(watcher);
      // 'mine' holds only what is assigned to the watcher: no other test's project can appear in it.
      await filterButton(watcher, 'mine').click();
      await expect(announcer(watcher)).toHaveText(`mine: ${projectMessages.noProjects}`);

      const first = await createProjectViaApi(authorSide.context.request, {
        name: uniqueProjectName('announced'),
        assignedUserIds: [watcherSide.user.uid],
      });
      await expect(projectCard(watcher, first.name)).toBeVisible();
      // Other tests' teammates may come online meanwhile and be told in the same sentence.
      await expect(announcer(watcher)).toContainText('1 new project.');

      // Several at once are one sentence.
      const burst = await Promise.all(
        [1, 2, 3].map((n) =>
          createProjectViaApi(authorSide.context.request, {
            name: uniqueProjectName(`burst ${n}`),
            assignedUserIds: [watcherSide.user.uid],
          }),
        ),
      );
      for (const project of burst) await expect(projectCard(watcher, project.name)).toBeVisible();
      await expect(announcer(watcher)).toContainText('3 new projects.');

      // A comment on the open project.
      await projectCard(watcher, first.name).getByRole('link').click();
      await expectLandedOn(watcher, first.name);
      await addCommentViaApi(authorSide.context.request, first.id, 'Hello from the author.');
      await expect(projectPage.comment(watcher, 'Hello from the author.')).toBeVisible();
      await expect(announcer(watcher)).toContainText('1 new comment.');

      // A teammate logs in, then out: online and offline are told, and shown in words after the name.
      const row = userRow(watcher, arriving.displayName);
      await expect(row).toContainText('offline');
      const arrivingPage = await arrivingContext.newPage();
      await arrivingPage.goto('/login');
      await fillLoginForm(arrivingPage, arriving.email, arriving.password);
      await arrivingPage.getByRole('button', { name: 'Log in', exact: true }).click();
      await expectLandedOn(arrivingPage, 'Dashboard');
      await expect(row).toContainText('online');
      await expect(announcer(watcher)).toContainText(presence(arriving.displayName, 'online'));
      await expectNoAxeViolations(watcher);

      await navbar.logoutButton(arrivingPage).click();
      await expectLandedOn(arrivingPage, 'login', 'Login');
      await expect(row).toContainText('offline');
      await expect(announcer(watcher)).toContainText(presence(arriving.displayName, 'offline'));
    } finally {
      await closeAll(watcherSide.context, authorSide.context, arrivingContext);
    }
  });

  test("a filter's result replaces the projects the list before it had not yet told", async ({ browser }) => {
    const watcherSide = await newSignedInContext(browser, newUser('switcher'));
    const authorSide = await newSignedInContext(browser, newUser('maker'));
    try {
      const watcher = watcherSide.page;
      await watcher.clock.install();
      await openDashboard(watcher);
      // Time stands still in the watcher's tab: what is reported waits in the batch until the clock runs.
      await watcher.clock.pauseAt((await watcher.evaluate(() => Date.now())) + 1_000);

      const elsewhere = await createProjectViaApi(authorSide.context.request, {
        name: uniqueProjectName('told in all'),
        assignedUserIds: [authorSide.user.uid],
      });
      await expect(projectCard(watcher, elsewhere.name)).toBeVisible();
      // Before that project is told, the watcher asks for another list: its result is what is said.
      await filterButton(watcher, 'mine').click();
      await expect(announcer(watcher)).toHaveText(`mine: ${projectMessages.noProjects}`);

      const mine = await createProjectViaApi(authorSide.context.request, {
        name: uniqueProjectName('told in mine'),
        assignedUserIds: [watcherSide.user.uid],
      });
      await expect(projectCard(watcher, mine.name)).toBeVisible();
      await watcher.clock.runFor(10_000);
      // Only the project new in the list on screen; other tests' teammates may share the sentence.
      await expect(announcer(watcher)).toContainText('1 new project.');
    } finally {
      await closeAll(watcherSide.context, authorSide.context);
    }
  });

  test('the setting turns live announcements off (kept in this browser) but not confirmations', async ({
    browser,
  }) => {
    const watcherSide = await newSignedInContext(browser, newUser('quiet'));
    const authorSide = await newSignedInContext(browser, newUser('chatty'));
    try {
      const watcher = watcherSide.page;
      await watcher.clock.install();
      const project = await createProjectViaApi(authorSide.context.request, {
        name: uniqueProjectName('quiet'),
        assignedUserIds: [watcherSide.user.uid],
      });
      await watcher.goto('/settings');
      const setting = watcher.getByRole('checkbox', { name: 'Announce live changes to screen readers' });
      await expect(setting).toBeChecked();
      await setting.uncheck();
      await watcher.reload();
      await expect(setting).not.toBeChecked();

      await openProject(watcher, project);
      await addCommentViaApi(authorSide.context.request, project.id, 'Said while you were not listening.');
      await expect(projectPage.comment(watcher, 'Said while you were not listening.')).toBeVisible();
      // Past any batch and throttle delay: nothing was queued to be said.
      await watcher.clock.runFor(10_000);
      await expect(announcer(watcher)).toHaveText('');

      // The user's own action is still confirmed.
      await projectPage.commentBox(watcher).fill('Mine.');
      await projectPage.addComment(watcher).click();
      await expect(announcer(watcher)).toHaveText('Comment added.');
    } finally {
      await closeAll(watcherSide.context, authorSide.context);
    }
  });
});

test.describe('focus is never lost', () => {
  test('pending submits keep the focus on their button (create, comment, complete, logout)', async ({
    signedIn,
    context,
  }) => {
    const { page, user } = signedIn;
    await page.goto('/create');
    await fillCreateForm(page, {
      name: uniqueProjectName('pending'),
      details: 'Held on its way.',
      dueDate: '2031-04-05',
      category: ['Mar', 'Marketing'],
      assignees: [user.displayName],
    });
    const create = await holdRequests(page, '**/api/projects');
    await createForm.submit(page).focus();
    await page.keyboard.press('Enter');
    await expect(createForm.submit(page)).toHaveAttribute('aria-disabled', 'true');
    await expect(createForm.submit(page)).toBeFocused();
    await expect.poll(() => activeElement(page)).toBe('button: Add Project');
    create.release();
    await expectLandedOn(page, 'Dashboard');
    await page.unroute('**/api/projects');

    const project = await createProjectViaApi(context.request, { assignedUserIds: [user.uid] });
    await openProject(page, project);
    await projectPage.commentBox(page).fill('Held comment.');
    const comment = await holdRequests(page, `**/api/projects/${project.id}/comments`);
    await projectPage.addComment(page).focus();
    await page.keyboard.press('Enter');
    await expect(projectPage.addComment(page)).toHaveAttribute('aria-disabled', 'true');
    await expect(projectPage.addComment(page)).toBeFocused();
    comment.release();
    await expect(projectPage.comment(page, 'Held comment.')).toBeVisible();
    await expect(projectPage.addComment(page)).toBeFocused();

    const complete = await holdRequests(page, `**/api/projects/${project.id}`);
    await projectPage.completeButton(page).focus();
    await page.keyboard.press('Enter');
    await expect(projectPage.completeButton(page)).toHaveAttribute('aria-disabled', 'true');
    await expect(projectPage.completeButton(page)).toBeFocused();
    complete.release();
    await expectLandedOn(page, 'Dashboard');

    const logout = await holdRequests(page, '**/api/auth/logout');
    await navbar.logoutButton(page).focus();
    await page.keyboard.press('Enter');
    const pending = page.getByRole('button', { name: 'Logging out...', exact: true });
    await expect(pending).toHaveAttribute('aria-disabled', 'true');
    await expect(pending).toBeFocused();
    logout.release();
    await expectLandedOn(page, 'login', 'Login');
  });

  test("a server's field error marks, describes and focuses that field (account settings)", async ({
    signedIn,
  }) => {
    const { page, user } = signedIn;
    await page.goto('/settings');
    const current = page.getByLabel('Current password:', { exact: true });
    await current.fill(`${user.password}-wrong`);
    await page.getByLabel('New password:', { exact: true }).fill('a-brand-new-password');
    const submit = page.getByRole('button', { name: 'Change password', exact: true });
    await submit.focus();
    await page.keyboard.press('Enter');
    await expect(current).toBeFocused();
    await expect(current).toHaveAttribute('aria-invalid', 'true');
    await expect(current).toHaveAccessibleDescription('The current password is wrong.');
    await expectNoAxeViolations(page);
  });

  test('the thumbnail and create-form errors sit next to their fields and describe them', async ({
    signedIn,
    browser,
  }) => {
    const { page } = signedIn;
    await page.goto('/create');
    await createForm.submit(page).click();
    await expect(alertWith(page, projectMessages.nameRequired)).toBeVisible();
    await expect(createForm.name(page)).toBeFocused();
    for (const [field, message] of [
      [createForm.name(page), projectMessages.nameRequired],
      [createForm.details(page), projectMessages.detailsRequired],
      [createForm.dueDate(page), projectMessages.dueDateRequired],
      [createForm.category(page), projectMessages.categoryRequired],
      [createForm.assignees(page), projectMessages.assigneesRequired],
    ] as const) {
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      await expect(field).toHaveAccessibleDescription(new RegExp(message.replace(/[.]/g, '\\.')));
      // In the summary and next to the field: the same words twice on the page.
      await expect(createForm.form(page).getByText(message, { exact: true })).toHaveCount(2);
    }

    const context = await browser.newContext();
    try {
      const signup = await context.newPage();
      await signup.goto('/signup');
      await fillSignupForm(signup, newUser('thumb'), svgFile());
      await signup.getByRole('button', { name: 'Sign up', exact: true }).click();
      const thumbnail = signup.getByLabel('Profile thumbnail:', { exact: true });
      await expect(thumbnail).toBeFocused();
      await expect(thumbnail).toHaveAttribute('aria-invalid', 'true');
      await expect(thumbnail).toHaveAccessibleDescription('Selected file must be an image');
      await expectNoAxeViolations(signup);
    } finally {
      await context.close();
    }
  });
});

test.describe('information not only in pictures or on hover', () => {
  test("assignees' names and a comment's exact time are text", async ({ signedIn, context }) => {
    const { page, user } = signedIn;
    const project = await createProjectViaApi(context.request, {
      name: uniqueProjectName('as text'),
      assignedUserIds: [user.uid],
    });
    await addCommentViaApi(context.request, project.id, 'When was this?');
    await openDashboard(page);
    await expect(projectCard(page, project.name).getByRole('listitem')).toHaveText([user.displayName]);
    // In the accessibility tree, the user's row says the state in words after the name (the dot is hidden).
    await expect(
      page
        .getByRole('complementary', { name: 'All Users' })
        .getByRole('listitem')
        .filter({ hasText: user.displayName }),
    ).toMatchAriaSnapshot(`- listitem: ${user.displayName} online`);

    await openProject(page, project);
    const summary = page.getByRole('region', { name: project.name });
    await expect(summary.getByRole('listitem')).toHaveText([user.displayName]);
    const comment = projectPage.comment(page, 'When was this?');
    const datetime = await comment.locator('time').getAttribute('datetime');
    const exact = await page.evaluate((iso) => new Date(iso ?? '').toLocaleString(), datetime);
    // Read after the relative time, without hovering.
    await expect(comment).toContainText(`less than a minute ago, ${exact}`);
    await expectNoAxeViolations(page);
  });
});

test.describe('every screen has its own h1 and no axe violations', () => {
  for (const [path, heading] of [
    ['/login', 'login'],
    ['/signup', 'sign up'],
    ['/reset-password', 'set a new password'],
    ['/no-such-page', 'Page not found'],
  ] as const) {
    test(`${path}, signed out`, async ({ browser }) => {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
        await expectNoAxeViolations(page);
      } finally {
        await context.close();
      }
    });
  }

  test('a member at an admin screen, and a project that does not exist', async ({ signedIn }) => {
    const { page } = signedIn;
    await page.goto('/admin/members');
    // The first account of a fresh server is its admin: this user may be that one.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^(Admins only|Members)$/);
    await expectNoAxeViolations(page);
    await page.goto('/projects/no-such-project');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Project');
    await expect(alertWith(page, projectMessages.noSuchDocument)).toBeVisible();
    await expectNoAxeViolations(page);
  });
});
