import type { Page } from '@playwright/test';
import { expect, holdRequests, newSignedInContext, newUser, test } from './support/fixtures';
import {
  closeAll,
  createProjectViaApi,
  openProject,
  projectMessages,
  projectPage,
  uniqueProjectName,
} from './support/projects';
import { alertWith } from './support/ui';

const HTML_COMMENT = '<b>bold</b><img src=x onerror="window.__x=1">';

async function injectedMarker(page: Page): Promise<unknown> {
  return page.evaluate(() => (window as unknown as { __x?: unknown }).__x);
}

test('a comment appears live on another open page; empty is refused; HTML stays text', async ({
  browser,
}) => {
  const author = await newSignedInContext(browser, newUser('commenter'));
  const reader = await newSignedInContext(browser, newUser('reader'));
  try {
    const project = await createProjectViaApi(author.context.request, {
      name: uniqueProjectName('comments'),
      assignedUserIds: [reader.user.uid],
    });

    const watcher = reader.page;
    await openProject(watcher, project);
    await watcher.evaluate(() => Object.assign(window, { __e2eNoReload: true }));

    const page = author.page;
    await openProject(page, project);
    const box = projectPage.commentBox(page);
    const send = projectPage.addComment(page);

    // Empty: refused in the browser, nothing reaches the project.
    await send.click();
    await expect(alertWith(page, projectMessages.commentRequired)).toBeVisible();
    await expect(page.getByRole('listitem').filter({ has: page.locator('time') })).toHaveCount(0);
    await expect(watcher.getByRole('listitem').filter({ has: watcher.locator('time') })).toHaveCount(0);

    // Typing clears the message; the text stays until the server has accepted the comment.
    const text = `First look ${Date.now().toString(36)}: the plan works.`;
    await box.fill(text);
    await expect(alertWith(page, projectMessages.commentRequired)).toHaveCount(0);
    const post = await holdRequests(page, `**/api/projects/${project.id}/comments`);
    await send.click();
    await expect(send).toBeDisabled();
    await expect(box).toHaveValue(text);
    post.release();
    await expect(box).toHaveValue('');
    await expect(send).toBeEnabled();

    for (const viewer of [page, watcher]) {
      const comment = projectPage.comment(viewer, text);
      await expect(comment).toBeVisible();
      await expect(comment.getByText(author.user.displayName, { exact: true })).toBeVisible();
      await expect(comment.locator('time')).toHaveText('less than a minute ago');
      await expect(comment.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}T/);
    }

    // HTML is content, not markup: shown literally, never parsed, never run.
    await box.fill(HTML_COMMENT);
    await send.click();
    await expect(box).toHaveValue('');
    for (const viewer of [page, watcher]) {
      const comment = projectPage.comment(viewer, HTML_COMMENT);
      await expect(comment).toBeVisible();
      await expect(comment.getByText(author.user.displayName, { exact: true })).toBeVisible();
      await expect(comment.locator('b')).toHaveCount(0);
      await expect(viewer.locator('img[src="x"]')).toHaveCount(0);
      expect(await injectedMarker(viewer)).toBeUndefined();
      // Oldest first: the earlier comment stays above.
      await expect(
        viewer
          .getByRole('listitem')
          .filter({ has: viewer.locator('time') })
          .locator('time'),
      ).toHaveCount(2);
    }
    await expect(
      watcher
        .getByRole('listitem')
        .filter({ has: watcher.locator('time') })
        .last(),
    ).toContainText(HTML_COMMENT);

    expect(
      await watcher.evaluate(() => (window as unknown as { __e2eNoReload?: boolean }).__e2eNoReload),
    ).toBe(true);
  } finally {
    await closeAll(author.context, reader.context);
  }
});
