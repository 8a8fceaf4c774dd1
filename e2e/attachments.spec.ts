import type { JSHandle, Page, Request } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { pngFile, textFile } from './support/files';
import { expect, holdRequests, newSignedInContext, newUser, test } from './support/fixtures';
import {
  closeAll,
  createForm,
  createProjectViaApi,
  fillCreateForm,
  openProject,
  projectPage,
  uniqueProjectName,
} from './support/projects';

/**
 * Attachments on a project page (issue 31, docs/decisions/073-attachments.md): dropped, pasted into a
 * comment, listed live in another browser, opened in the image viewer by keyboard, refused before upload.
 * The texts are the product's words, typed here on purpose (see support/projects.ts).
 */

const attachments = {
  section: (page: Page) => page.getByRole('region', { name: 'Attachments', exact: true }),
  heading: (page: Page) => page.getByRole('heading', { level: 2, name: 'Attachments', exact: true }),
  list: (page: Page) => page.getByRole('list', { name: 'Attachments', exact: true }),
  item: (page: Page, name: string) => attachments.list(page).getByRole('listitem').filter({ hasText: name }),
  uploadRow: (page: Page, name: string) =>
    page.getByRole('list', { name: 'Uploads', exact: true }).getByRole('listitem').filter({ hasText: name }),
  progress: (page: Page, name: string) => page.getByRole('progressbar', { name: `Upload of ${name}` }),
  dropZone: (page: Page) => page.getByText('Drop files to attach them to this project', { exact: true }),
};

const announcer = (page: Page) => page.getByRole('status', { name: 'Announcements', exact: true });

const STORAGE_REQUESTS = '**/v0/b/**';

/** A DataTransfer made in the page, holding one file of `size` bytes (or the given base64 bytes). */
function fileTransfer(
  page: Page,
  file: { name: string; type: string; size?: number; base64?: string },
): Promise<JSHandle<DataTransfer>> {
  return page.evaluateHandle(({ name, type, size, base64 }) => {
    const bytes = base64
      ? Uint8Array.from(atob(base64), (char) => char.charCodeAt(0))
      : new Uint8Array(size ?? 0).fill(65);
    const transfer = new DataTransfer();
    transfer.items.add(new File([bytes], name, { type }));
    return transfer;
  }, file);
}

/**
 * Slows the page's uploads for real with Chromium's network emulation (on the page's own CDP session), so
 * that an upload is still on the wire when the test acts on it. `restore()` lifts it.
 */
async function slowUploads(page: Page, bytesPerSecond: number): Promise<{ restore(): Promise<void> }> {
  const session = await page.context().newCDPSession(page);
  await session.send('Network.enable');
  await session.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
  return {
    restore: async () => {
      await session.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
      await session.detach();
    },
  };
}

/** Drags the transfer's files onto the page and drops them, as a user dragging from the desktop would. */
async function dropOnPage(page: Page, transfer: JSHandle<DataTransfer>): Promise<void> {
  await page.dispatchEvent('main', 'dragenter', { dataTransfer: transfer });
  await page.dispatchEvent('main', 'dragover', { dataTransfer: transfer });
  await expect(attachments.dropZone(page)).toBeVisible();
  await page.dispatchEvent('main', 'drop', { dataTransfer: transfer });
  await expect(attachments.dropZone(page)).toBeHidden();
}

test('a file dropped on a project page shows its progress and appears live in another browser', async ({
  browser,
}) => {
  const creator = await newSignedInContext(browser, newUser('attacher'));
  const member = await newSignedInContext(browser, newUser('watcher'));
  try {
    const project = await createProjectViaApi(creator.context.request, {
      name: uniqueProjectName('attachments'),
      assignedUserIds: [member.user.uid],
    });
    await openProject(member.page, project);
    await expect(attachments.heading(member.page)).toBeVisible();
    await member.page.evaluate(() => Object.assign(window, { __e2eNoReload: true }));

    const page = creator.page;
    await openProject(page, project);
    // The limits are on the page before anything is picked.
    await expect(attachments.section(page).getByText(/^Up to \d+ MB a file; .* left\./)).toBeVisible();

    // Over the resumable threshold (256 KiB): sent in chunks (256 KiB, then 512 KiB, then the rest), with
    // progress between them, at a real 400 kB/s (Chromium's own upload throttling, nothing mocked).
    const name = 'plan.txt';
    const network = await slowUploads(page, 400_000);
    const held = await holdRequests(page, STORAGE_REQUESTS);
    await dropOnPage(page, await fileTransfer(page, { name, type: 'text/plain', size: 1_500_000 }));
    const row = attachments.uploadRow(page, name);
    const progress = attachments.progress(page, name);
    await expect(row).toContainText('1.5 MB');
    await expect(progress).toHaveAttribute('aria-valuenow', '0');
    await expect(row.getByRole('button', { name: `Cancel ${name}` })).toBeVisible();

    // Paused while its second chunk is on the wire: that request is dropped, nothing more is sent, and the
    // row says so; resumed, it goes on from where the server is and completes.
    const secondChunk = page.waitForRequest(
      (request) =>
        request.url().includes('/v0/b/') &&
        (request.headers()['x-goog-upload-command'] ?? '').startsWith('upload') &&
        request.headers()['x-goog-upload-offset'] !== '0',
    );
    held.release();
    const chunk = await secondChunk;
    const dropped = page.waitForEvent('requestfailed', (request) => request === chunk);
    await row.getByRole('button', { name: `Pause ${name}` }).click();
    await dropped;
    await expect(row).toContainText(/Paused · \d+%/);
    await expect(progress).toHaveAttribute('aria-valuetext', /%, paused$/);
    const pausedAt = await progress.getAttribute('aria-valuenow');
    expect(Number(pausedAt)).toBeGreaterThan(0);
    expect(Number(pausedAt)).toBeLessThan(100);
    const sentWhilePaused: string[] = [];
    const countSent = (request: Request) => {
      if (request.url().includes('/v0/b/')) sentWhilePaused.push(request.url());
    };
    page.on('request', countSent);
    await network.restore();
    // Nothing reached the other page, and nothing moved here, while it was paused.
    await expect(
      attachments.section(member.page).getByText('No attachments yet.', { exact: true }),
    ).toBeVisible();
    await expect(progress).toHaveAttribute('aria-valuenow', pausedAt ?? '');
    page.off('request', countSent);
    expect(sentWhilePaused).toEqual([]);

    await row.getByRole('button', { name: `Resume ${name}` }).click();
    await expect(progress).toHaveAttribute('aria-valuenow', '100');
    await expect(row).toContainText('Attached');
    await expect(announcer(page)).toHaveText('1 file attached.');

    for (const viewer of [page, member.page]) {
      const item = attachments.item(viewer, name);
      await expect(item).toBeVisible();
      await expect(item).toContainText(creator.user.displayName);
      await expect(item).toContainText('1.5 MB');
      await expect(item.getByRole('link', { name: `Open ${name} in a new tab` })).toBeVisible();
    }
    // The member neither uploaded it nor created the project: no delete for them.
    await expect(
      attachments.item(member.page, name).getByRole('button', { name: `Delete ${name}` }),
    ).toHaveCount(0);
    expect(await member.page.evaluate(() => (window as { __e2eNoReload?: boolean }).__e2eNoReload)).toBe(
      true,
    );

    // The uploader deletes it, confirmed in place; it goes from both pages.
    // 'Confirm delete' takes focus; Escape goes back to Delete, focused.
    const deleteButton = attachments.item(page, name).getByRole('button', { name: `Delete ${name}` });
    const confirmDelete = page.getByRole('button', { name: 'Confirm delete', exact: true });
    await deleteButton.click();
    await expect(page.getByRole('group', { name: `Delete ${name}?` })).toBeVisible();
    await expect(confirmDelete).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(confirmDelete).toHaveCount(0);
    await expect(deleteButton).toBeFocused();
    await deleteButton.click();
    await page.keyboard.press('Enter');
    await expect(announcer(page)).toHaveText(`${name} deleted.`);
    await expect(attachments.item(page, name)).toHaveCount(0);
    await expect(attachments.item(member.page, name)).toHaveCount(0);
  } finally {
    await closeAll(creator.context, member.context);
  }
});

test('an image pasted into a comment is attached to it and opens in the viewer by keyboard', async ({
  browser,
}) => {
  const author = await newSignedInContext(browser, newUser('paster'));
  try {
    const project = await createProjectViaApi(author.context.request, {
      name: uniqueProjectName('pasted image'),
      assignedUserIds: [author.user.uid],
    });
    const page = author.page;
    await openProject(page, project);
    const box = projectPage.commentBox(page);
    await box.fill('The screenshot of the bug.');
    const png = pngFile().buffer.toString('base64');
    const transfer = await fileTransfer(page, { name: 'image.png', type: 'image/png', base64: png });
    await box.evaluate((element, clipboardData) => {
      element.dispatchEvent(new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }));
    }, transfer);
    const waiting = page.getByRole('list', { name: 'Files to attach', exact: true });
    await expect(waiting.getByText(/^Pasted image .*\.png$/)).toBeVisible();
    await projectPage.addComment(page).click();
    const comment = projectPage.comment(page, 'The screenshot of the bug.');
    await expect(comment).toBeVisible();

    // The project's list has every file; a comment's links to its comment.
    const item = attachments
      .list(page)
      .getByRole('listitem')
      .filter({ hasText: /Pasted image/ });
    await expect(item).toContainText('Image');
    await expect(item.getByRole('link', { name: 'on a comment', exact: true })).toHaveAttribute(
      'href',
      /#comment-/,
    );
    // Under the comment too: registered after the comment was sent, it arrived there live.
    const underComment = comment
      .getByRole('list', { name: 'Files on this comment', exact: true })
      .getByRole('listitem');
    await expect(underComment).toHaveCount(1);
    await expect(underComment).toContainText(/^Pasted image .*\.png/);
    await expect(underComment).toContainText(`Image · ${pngFile().buffer.length} bytes`);
    await expect(underComment.locator('img.attachment-thumbnail')).toHaveAttribute('src', /thumbnail/);
    const opener = underComment.getByRole('button', { name: /^View Pasted image/ });
    await opener.focus();
    await page.keyboard.press('Enter');
    const viewer = page.getByRole('dialog', { name: /^Pasted image/ });
    await expect(viewer).toBeVisible();
    await expect(viewer.getByRole('img', { name: /^Pasted image/ })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(viewer).toBeHidden();
    await expect(opener).toBeFocused();

    // The page with its attachments passes axe in both themes, and fits 320 px.
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await expectNoAxeViolations(page);
    }
    await page.setViewportSize({ width: 320, height: 700 });
    await expect(item).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  } finally {
    await closeAll(author.context);
  }
});

test('a file over the per-file limit is refused with the reason before anything is sent', async ({
  browser,
}) => {
  const author = await newSignedInContext(browser, newUser('bigfile'));
  try {
    const project = await createProjectViaApi(author.context.request, {
      name: uniqueProjectName('too big'),
      assignedUserIds: [author.user.uid],
    });
    const limits = (await (await author.context.request.get('/api/attachments/limits')).json()) as {
      maxFileBytes: number;
    };
    const page = author.page;
    await openProject(page, project);
    await expect(attachments.section(page).getByText(/^Up to .* a file;/)).toBeVisible();
    const sent: string[] = [];
    page.on('request', (request) => {
      // An upload is a POST; a GET there is an avatar's picture loading, not this file.
      if (request.url().includes('/v0/b/') && request.method() !== 'GET') sent.push(request.url());
    });
    const name = 'huge.bin';
    await dropOnPage(
      page,
      await fileTransfer(page, { name, type: 'application/octet-stream', size: limits.maxFileBytes + 1 }),
    );
    const row = attachments.uploadRow(page, name);
    await expect(row.getByRole('alert')).toHaveText(
      /^This file is too big: an attachment is at most \d+ MB\.$/,
    );
    await expect(row).toContainText('Not attached');
    await expect(attachments.progress(page, name)).toHaveCount(0);
    expect(sent).toEqual([]);
    await expect(page.getByText('No attachments yet.', { exact: true })).toBeVisible();
  } finally {
    await closeAll(author.context);
  }
});

test('files picked in the create form upload once the project exists, on its page', async ({ browser }) => {
  const author = await newSignedInContext(browser, newUser('creator'));
  try {
    const page = author.page;
    await page.goto('/create');
    const name = uniqueProjectName('with files');
    await fillCreateForm(page, {
      name,
      details: 'Mock-ups attached.',
      dueDate: '2031-02-01',
      category: ['Des', 'Design'],
      assignees: [author.user.displayName],
    });
    await expect(createForm.form(page).getByText(/^Up to \d+ MB a file; .* left\./)).toBeVisible();
    await page
      .locator('input[type="file"][aria-label="Attach files"]')
      .setInputFiles([pngFile('mockup.png'), textFile('brief.txt')]);
    const waiting = page.getByRole('list', { name: 'Files to attach', exact: true });
    await expect(waiting.getByRole('listitem')).toHaveCount(2);
    await createForm.submit(page).click();

    // The project's page, where the uploads show, then the list.
    await expect(projectPage.heading(page, name)).toBeVisible();
    await expect(attachments.item(page, 'mockup.png')).toBeVisible();
    await expect(attachments.item(page, 'brief.txt')).toBeVisible();
    await expect(
      attachments.item(page, 'mockup.png').getByRole('button', { name: 'View mockup.png' }),
    ).toBeVisible();
    await expect(announcer(page)).toHaveText('2 files attached.');
  } finally {
    await closeAll(author.context);
  }
});

test('files picked in the edit form are attached once the changes are saved', async ({ browser }) => {
  const author = await newSignedInContext(browser, newUser('editor'));
  try {
    const project = await createProjectViaApi(author.context.request, {
      name: uniqueProjectName('edited with files'),
      assignedUserIds: [author.user.uid],
    });
    const page = author.page;
    await page.goto(`/projects/${encodeURIComponent(project.id)}/edit`);
    await page
      .locator('input[type="file"][aria-label="Attach files"]')
      .setInputFiles([textFile('minutes.txt')]);
    const waiting = page.getByRole('list', { name: 'Files to attach', exact: true });
    await expect(waiting.getByRole('listitem')).toHaveCount(1);
    await page.getByRole('button', { name: 'Save changes', exact: true }).click();

    await expect(projectPage.heading(page, project.name)).toBeVisible();
    const item = attachments.item(page, 'minutes.txt');
    await expect(item).toBeVisible();
    await expect(item).toContainText(author.user.displayName);
    await expect(item.getByRole('link', { name: 'on a comment' })).toHaveCount(0);
  } finally {
    await closeAll(author.context);
  }
});
