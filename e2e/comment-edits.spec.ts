import { expectNoAxeViolations } from './support/axe';
import { expect, newSignedInContext, newUser, test } from './support/fixtures';
import {
  addCommentViaApi,
  closeAll,
  createProjectViaApi,
  openProject,
  projectMessages,
  projectPage,
  uniqueProjectName,
} from './support/projects';
import { alertWith } from './support/ui';

test('an author edits and deletes a comment; another open page follows live; axe clean', async ({
  browser,
}) => {
  // Two signed-in contexts and three axe scans: past 30 s on a loaded 2-core machine (a fresh-clone run).
  const author = await newSignedInContext(browser, newUser('editor'));
  const reader = await newSignedInContext(browser, newUser('watcher'));
  try {
    const project = await createProjectViaApi(author.context.request, {
      name: uniqueProjectName('edits'),
      assignedUserIds: [reader.user.uid],
    });
    const original = `Draft ${Date.now().toString(36)}: ship on Friday.`;
    const rewritten = `${original} Update: Monday.`;

    const page = author.page;
    const watcher = reader.page;
    await openProject(page, project);
    await openProject(watcher, project);
    await projectPage.commentBox(page).fill(original);
    await projectPage.addComment(page).click();
    await expect(projectPage.comment(watcher, original)).toBeVisible();

    // Only the author is offered Edit and Delete.
    const mine = projectPage.comment(page, original);
    const editButton = mine.getByRole('button', { name: /^Edit/ });
    await expect(editButton).toBeVisible();
    await expect(mine.getByRole('button', { name: /^Delete/ })).toBeVisible();
    await expect(projectPage.comment(watcher, original).getByRole('button')).toHaveCount(0);

    // Keyboard: Edit opens a labelled box with the text and focus; Escape leaves it unchanged.
    await editButton.focus();
    await page.keyboard.press('Enter');
    const box = page.getByLabel('Edit comment:', { exact: true });
    await expect(box).toBeFocused();
    await expect(box).toHaveValue(original);
    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');
    await expect(box).toHaveCount(0);
    await expect(editButton).toBeFocused();

    // Empty is refused with the add form's message; the box keeps what was typed.
    await page.keyboard.press('Enter');
    await box.fill('   ');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(alertWith(page, projectMessages.commentRequired)).toBeVisible();
    await expect(box).toHaveValue('   ');
    await expect(box).toBeFocused();

    await box.fill(rewritten);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    for (const viewer of [page, watcher]) {
      const comment = projectPage.comment(viewer, rewritten);
      await expect(comment).toBeVisible();
      await expect(comment).toContainText('(edited)');
      await expect(comment.locator('time').last()).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}T/);
      await expect(projectPage.comment(viewer, original)).toHaveCount(0);
    }
    await expect(projectPage.comment(page, rewritten).getByRole('button', { name: /^Edit/ })).toBeFocused();
    await expectNoAxeViolations(watcher);

    // Delete asks first: 'Confirm delete' takes focus; Escape goes back to Delete.
    const edited = projectPage.comment(page, rewritten);
    const deleteButton = edited.getByRole('button', { name: /^Delete/ });
    await deleteButton.click();
    const confirm = edited.getByRole('button', { name: 'Confirm delete', exact: true });
    await expect(confirm).toBeFocused();
    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');
    await expect(confirm).toHaveCount(0);
    await expect(deleteButton).toBeFocused();
    await expect(projectPage.comment(watcher, rewritten)).toBeVisible();

    await deleteButton.click();
    await page.keyboard.press('Enter');
    for (const viewer of [page, watcher]) {
      await expect(projectPage.comment(viewer, rewritten)).toHaveCount(0);
      await expect(viewer.getByRole('listitem').filter({ has: viewer.locator('time') })).toHaveCount(0);
    }
    await expect(projectPage.commentsHeading(page)).toBeFocused();
    await expectNoAxeViolations(page);
    await expectNoAxeViolations(watcher);
  } finally {
    await closeAll(author.context, reader.context);
  }
});

test('edits and deletes in an older page, loaded with "Show older comments", show live', async ({
  browser,
}) => {
  const author = await newSignedInContext(browser, newUser('older-editor'));
  const reader = await newSignedInContext(browser, newUser('older-reader'));
  try {
    const { request } = author.context;
    const project = await createProjectViaApi(request, {
      name: uniqueProjectName('older-edits'),
      assignedUserIds: [reader.user.uid],
    });
    // One page and a few more: comments 1–5 are only on the older page.
    for (let index = 1; index <= 25; index += 1) await addCommentViaApi(request, project.id, `Old ${index}`);
    const listed = await request.get(`/api/projects/${project.id}/comments?limit=100`);
    const { comments } = (await listed.json()) as { comments: { id: string; content: string }[] };
    const idOf = (content: string) => comments.find((comment) => comment.content === content)?.id ?? '';

    const page = reader.page;
    await openProject(page, project);
    await expect(projectPage.comment(page, 'Old 6')).toBeVisible();
    await expect(projectPage.comment(page, 'Old 2')).toHaveCount(0);
    await page.getByRole('button', { name: 'Show older comments', exact: true }).click();
    await expect(projectPage.comment(page, 'Old 2')).toBeVisible();

    const path = (content: string) => `/api/projects/${project.id}/comments/${idOf(content)}`;
    expect((await request.patch(path('Old 2'), { data: { content: 'Old 2, corrected' } })).status()).toBe(
      200,
    );
    const corrected = projectPage.comment(page, 'Old 2, corrected');
    await expect(corrected).toBeVisible();
    await expect(corrected).toContainText('(edited)');
    expect((await request.delete(path('Old 3'))).status()).toBe(204);
    await expect(projectPage.comment(page, 'Old 3')).toHaveCount(0);
    await expect(page.getByRole('listitem').filter({ has: page.locator('time') })).toHaveCount(24);
    await expectNoAxeViolations(page);
  } finally {
    await closeAll(author.context, reader.context);
  }
});
