import { expectNoAxeViolations } from './support/axe';
import { expect, newSignedInContext, newUser, test } from './support/fixtures';
import {
  addCommentViaApi,
  closeAll,
  createForm,
  createProjectViaApi,
  openDashboard,
  openProject,
  projectCard,
  projectMessages,
  projectPage,
  uniqueProjectName,
} from './support/projects';
import { alertWith } from './support/ui';

test.describe('accessibility (axe): projects', () => {
  test('the dashboard with projects has no axe violations', async ({ browser }) => {
    const { context, page, user } = await newSignedInContext(browser, newUser('axe-dashboard'));
    try {
      const project = await createProjectViaApi(context.request, {
        name: uniqueProjectName('axe dashboard'),
        category: 'marketing',
        assignedUserIds: [user.uid],
      });
      await openDashboard(page);
      await expect(projectCard(page, project.name)).toBeVisible();
      await expect(
        projectCard(page, project.name).getByRole('listitem').filter({ hasText: user.displayName }),
      ).toHaveCount(1);
      await expectNoAxeViolations(page);
    } finally {
      await closeAll(context);
    }
  });

  test('the create form has no axe violations, also showing its errors', async ({ browser }) => {
    const { context, page, user } = await newSignedInContext(browser, newUser('axe-create'));
    try {
      await page.goto('/create');
      await expect(createForm.heading(page)).toBeVisible();
      // The assignee options have arrived (the control is no longer loading).
      await createForm.assignees(page).click();
      await expect(page.getByRole('option', { name: user.displayName, exact: true })).toBeVisible();
      await createForm.assignees(page).press('Escape');
      await expectNoAxeViolations(page);

      // A select's open menu (appearance.spec.ts checks only its colours, in both themes).
      const category = createForm.category(page);
      await category.click();
      await expect(page.getByRole('listbox')).toBeVisible();
      await expectNoAxeViolations(page);
      await category.press('Escape');
      await expect(page.getByRole('listbox')).toBeHidden();

      await createForm.submit(page).click();
      await expect(alertWith(page, projectMessages.nameRequired)).toBeVisible();
      await expect(alertWith(page, projectMessages.assigneesRequired)).toBeVisible();
      await expectNoAxeViolations(page);
    } finally {
      await closeAll(context);
    }
  });

  test('the project page with comments has no axe violations', async ({ browser }) => {
    const { context, page, user } = await newSignedInContext(browser, newUser('axe-project'));
    try {
      const project = await createProjectViaApi(context.request, {
        name: uniqueProjectName('axe project'),
        details: 'Details to read.\nOn two lines.',
        assignedUserIds: [user.uid],
      });
      await addCommentViaApi(context.request, project.id, 'A first comment.');
      await addCommentViaApi(context.request, project.id, 'A second one,\nover two lines.');
      await openProject(page, project);
      await expect(projectPage.comment(page, 'A first comment.')).toBeVisible();
      await expect(projectPage.completeButton(page)).toBeVisible();
      await expectNoAxeViolations(page);

      // With the empty-comment message showing, too.
      await projectPage.addComment(page).click();
      await expect(alertWith(page, projectMessages.commentRequired)).toBeVisible();
      await expectNoAxeViolations(page);
    } finally {
      await closeAll(context);
    }
  });
});
