import { expect, newSignedInContext, newUser, test } from './support/fixtures';
import {
  addCommentViaApi,
  closeAll,
  createProjectViaApi,
  openProject,
  projectPage,
  uniqueProjectName,
} from './support/projects';

/** The live page holds this many comments (COMMENTS_PAGE_SIZE); older ones load on demand. */
const PAGE_SIZE = 20;
const TOTAL = PAGE_SIZE * 2 + 5;

test('a long thread opens on its newest comments; "Show older comments" loads the rest, in order', async ({
  browser,
}) => {
  const reader = await newSignedInContext(browser, newUser('thread'));
  try {
    const { request } = reader.context;
    const project = await createProjectViaApi(request, {
      name: uniqueProjectName('thread'),
      assignedUserIds: [reader.user.uid],
    });
    // In order (each answered before the next): the thread's order is the order they were sent.
    for (let index = 1; index <= TOTAL; index += 1) {
      await addCommentViaApi(request, project.id, `Thread comment ${index}`);
    }

    const page = reader.page;
    await openProject(page, project);
    const comments = page.getByRole('listitem').filter({ has: page.locator('time') });
    const contents = () => comments.locator('.comment-content');
    const expected = (from: number) =>
      Array.from({ length: TOTAL - from + 1 }, (_, index) => `Thread comment ${from + index}`);

    // The newest page only, oldest of it first.
    await expect(contents()).toHaveText(expected(TOTAL - PAGE_SIZE + 1));
    const older = page.getByRole('button', { name: 'Show older comments', exact: true });
    await older.focus();
    await page.keyboard.press('Enter');
    await expect(contents()).toHaveText(expected(TOTAL - 2 * PAGE_SIZE + 1));
    // More remain: the button stays, and keeps the keyboard focus.
    await expect(older).toBeFocused();

    // A new comment still arrives live at the bottom while older ones are shown.
    await addCommentViaApi(request, project.id, 'Live while reading');
    await expect(comments.last()).toContainText('Live while reading');

    await older.click();
    await expect(contents()).toHaveText([...expected(1), 'Live while reading']);
    // Nothing older is left: the button goes, and focus moves to the oldest comment just loaded.
    await expect(older).toHaveCount(0);
    await expect(projectPage.comment(page, 'Thread comment 1')).toBeFocused();
  } finally {
    await closeAll(reader.context);
  }
});
