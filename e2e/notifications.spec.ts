import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { expect, newSignedInContext, newUser, test } from './support/fixtures';
import {
  addCommentViaApi,
  closeAll,
  createProjectViaApi,
  openDashboard,
  openProject,
  projectPage,
} from './support/projects';

const bell = (page: Page, unread: number) =>
  page.getByRole('button', { name: `Notifications, ${unread} unread`, exact: true });

test('an assignment and a mention ring the other member’s bell live; opening one lands on the comment; mark as read clears both tabs; axe clean', async ({
  browser,
}) => {
  // Two users, four tabs and two axe scans: ≈ 17 s on an idle machine, so 30 s is too tight under load.
  const ada = await newSignedInContext(browser, newUser('ada'));
  const bob = await newSignedInContext(browser, newUser('bob'));
  try {
    const bobTabs = [bob.page, await bob.context.newPage()];
    for (const tab of bobTabs) {
      await openDashboard(tab);
      await expect(bell(tab, 0)).toBeVisible();
    }

    const project = await createProjectViaApi(ada.context.request, { assignedUserIds: [bob.user.uid] });
    for (const tab of bobTabs) await expect(bell(tab, 1)).toBeVisible();

    // The mention token typed as text (the comment box's @ suggestions insert the same token).
    const remark = `please look at this ${Date.now().toString(36)}`;
    await openProject(ada.page, project);
    await projectPage.commentBox(ada.page).fill(`<@${bob.user.uid}> ${remark}`);
    await projectPage.addComment(ada.page).click();
    for (const tab of bobTabs) await expect(bell(tab, 2)).toBeVisible();
    // The author hears nothing of their own actions.
    await expect(bell(ada.page, 0)).toBeVisible();

    const [tab, otherTab] = bobTabs as [Page, Page];
    await bell(tab, 2).click();
    const panel = tab.getByRole('region', { name: 'Notifications' });
    await expect(panel.getByRole('heading', { name: 'Notifications' })).toBeFocused();
    const links = panel.getByRole('link');
    await expect(links).toHaveText([
      `Unread: ${ada.user.displayName} mentioned you in ${project.name}`,
      `Unread: ${ada.user.displayName} assigned you to ${project.name}`,
    ]);
    await expectNoAxeViolations(tab);

    // Escape closes the panel and gives focus back to the bell.
    await tab.keyboard.press('Escape');
    await expect(panel).toHaveCount(0);
    await expect(bell(tab, 2)).toBeFocused();
    await tab.keyboard.press('Enter');
    await panel.getByRole('link').first().click();

    await expect(projectPage.heading(tab, project.name)).toBeVisible();
    await expect(tab.locator('li.comment').filter({ hasText: remark })).toBeFocused();
    for (const page of bobTabs) await expect(bell(page, 1)).toBeVisible();

    await bell(otherTab, 1).click();
    await otherTab.getByRole('button', { name: 'Mark all as read', exact: true }).click();
    for (const page of bobTabs) await expect(bell(page, 0)).toBeVisible();
    await expect(
      otherTab.getByRole('region', { name: 'Notifications' }).getByRole('link').first(),
    ).toHaveText(`${ada.user.displayName} mentioned you in ${project.name}`);
    await expectNoAxeViolations(otherTab);
  } finally {
    await closeAll(ada.context, bob.context);
  }
});

test('a notification of a comment many pages back loads the older pages and lands on it', async ({
  browser,
}) => {
  const ada = await newSignedInContext(browser, newUser('ada'));
  const bob = await newSignedInContext(browser, newUser('bob'));
  try {
    const project = await createProjectViaApi(ada.context.request, { assignedUserIds: [ada.user.uid] });
    const remark = `the old question ${Date.now().toString(36)}`;
    await addCommentViaApi(ada.context.request, project.id, `<@${bob.user.uid}> ${remark}`);
    // Two older pages of 20 and then some stand between the first page and the mention.
    for (let index = 1; index <= 45; index += 1) {
      await addCommentViaApi(ada.context.request, project.id, `later remark ${index}`);
    }

    await openDashboard(bob.page);
    await bell(bob.page, 1).click();
    await bob.page
      .getByRole('region', { name: 'Notifications' })
      .getByRole('link', { name: `Unread: ${ada.user.displayName} mentioned you in ${project.name}` })
      .click();

    await expect(projectPage.heading(bob.page, project.name)).toBeVisible();
    await expect(bob.page.locator('li.comment').filter({ hasText: remark })).toBeFocused();
    await expect(bob.page.locator('li.comment')).toHaveCount(46);
  } finally {
    await closeAll(ada.context, bob.context);
  }
});

test('the settings screen turns a kind off in the app; axe clean', async ({ browser }) => {
  const member = await newSignedInContext(browser, newUser('quiet'));
  try {
    await member.page.goto('/settings');
    const section = member.page.getByRole('region', { name: 'Notifications' });
    const comments = section.getByRole('checkbox', {
      name: 'A comment on a project you created or are assigned to: in the app',
    });
    await expect(comments).toBeChecked();
    // Without SMTP_URL the server sends no email: no email column.
    await expect(section.getByRole('combobox')).toHaveCount(0);
    await comments.uncheck();
    await expect(section.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    await expectNoAxeViolations(member.page);
    await member.page.reload();
    await expect(
      member.page
        .getByRole('region', { name: 'Notifications' })
        .getByRole('checkbox', { name: 'A comment on a project you created or are assigned to: in the app' }),
    ).not.toBeChecked();
  } finally {
    await closeAll(member.context);
  }
});
