import { expectNoAxeViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import {
  addCommentViaApi,
  createProjectViaApi,
  dashboardHeading,
  projectPage,
  uniqueProjectName,
  uniqueWord,
} from './support/projects';

test('the navbar search finds a word from a comment, highlighted, and opens the project', async ({
  signedIn,
}) => {
  const { page, user } = signedIn;
  const word = uniqueWord('Zebrafish');
  const project = await createProjectViaApi(page.request, {
    name: uniqueProjectName('search'),
    details: 'Nothing to find here.',
    assignedUserIds: [user.uid],
  });
  await addCommentViaApi(page.request, project.id, `Remember the ${word} tank before Friday.`);

  await page.goto('/');
  await expect(dashboardHeading(page)).toBeVisible();
  const box = page.getByRole('combobox', { name: 'Search projects' });

  // '/' focuses the box from the page, and types nothing into it.
  await page.locator('body').press('/');
  await expect(box).toBeFocused();
  await expect(box).toHaveValue('');

  // Typed in lower case and without its capital: case is ignored; the last word is a prefix as you type.
  await box.pressSequentially(`remember ${word.toLowerCase().slice(0, -2)}`);
  const list = page.getByRole('listbox', { name: 'Projects found' });
  const option = list.getByRole('option').filter({ hasText: project.name });
  await expect(option).toBeVisible();
  await expect(box).toHaveAttribute('aria-expanded', 'true');
  await expect(option).toContainText('in a comment');
  await expect(option.locator('mark')).toHaveText(['Remember', word]);
  await expectNoAxeViolations(page);

  // Arrow down picks it; Enter opens it.
  await box.press('ArrowDown');
  await expect(option).toHaveAttribute('aria-selected', 'true');
  await expect(box).toHaveAttribute('aria-activedescendant', (await option.getAttribute('id')) ?? '');
  await box.press('Enter');
  await expect(projectPage.heading(page, project.name)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/projects/${project.id}$`));

  // Escape closes the list; a click on a result opens it too.
  await page.getByRole('link', { name: 'Dashboard' }).first().click();
  await expect(dashboardHeading(page)).toBeVisible();
  await box.click();
  await box.fill(word);
  await expect(option).toBeVisible();
  await box.press('Escape');
  await expect(list).toHaveCount(0);
  await expect(box).toHaveAttribute('aria-expanded', 'false');
  await box.press('ArrowDown');
  await expect(option).toBeVisible();
  await option.click();
  await expect(projectPage.heading(page, project.name)).toBeVisible();
});

test("'/' typed in another field stays in it; a search without results says so", async ({ signedIn }) => {
  const { page, user } = signedIn;
  const project = await createProjectViaApi(page.request, {
    name: uniqueProjectName('search'),
    assignedUserIds: [user.uid],
  });
  await page.goto(`/projects/${project.id}`);
  const comment = projectPage.commentBox(page);
  await comment.click();
  await comment.press('/');
  await expect(comment).toHaveValue('/');
  await expect(comment).toBeFocused();

  const box = page.getByRole('combobox', { name: 'Search projects' });
  await box.fill(uniqueWord('nothingatall'));
  await expect(page.getByRole('status').filter({ hasText: 'No results' })).toBeVisible();
  await expect(box).toHaveAttribute('aria-expanded', 'false');
  await expectNoAxeViolations(page);
});
