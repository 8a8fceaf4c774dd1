import { WAIT_MS } from '../test/support/poll';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { messages } from '../src/common/messages';
import { expect, newUser, signUpViaApi, test } from './support/fixtures';
import {
  addCommentViaApi,
  closeAll,
  createProjectViaApi,
  holdLiveSocket,
  openProject,
  projectCard,
  projectPage,
  uniqueProjectName,
} from './support/projects';
import { startOwnServer, type OwnServer } from './support/server-process';

/** The tab's accessible 'Reconnecting…' state (a live region, so screen readers hear it). */
const reconnecting = (page: Page) => page.getByRole('status').filter({ hasText: messages.reconnecting });

/** The reconnect backoff tops out at 10 s (src/sdk/live.ts); more than that is a tab that gave up. */
const BACK_WITHIN_MS = 20_000;

test('an open tab reconnects by itself after a server restart and shows what changed meanwhile, without a reload', async ({
  browser,
}) => {
  test.setTimeout(12 * WAIT_MS);
  const tempDir = mkdtempSync(path.join(os.tmpdir(), 'dojo-e2e-restart-'));
  let server: OwnServer | undefined = await startOwnServer(tempDir);
  const context = await browser.newContext({ baseURL: server.url });
  // Someone else on the team, making changes while the tabs are away.
  const other = await browser.newContext({ baseURL: server.url });
  try {
    const user = await signUpViaApi(context.request, newUser('restart'));
    await signUpViaApi(other.request, newUser('colleague'));
    const before = await createProjectViaApi(context.request, {
      name: uniqueProjectName('before restart'),
      assignedUserIds: [user.uid],
    });

    const dashboard = await context.newPage();
    await dashboard.goto('/');
    await expect(projectCard(dashboard, before.name)).toBeVisible();
    const projectTab = await context.newPage();
    await openProject(projectTab, before);
    const tabs = [dashboard, projectTab];
    for (const tab of tabs) {
      await expect(reconnecting(tab)).toHaveCount(0);
      // Gone if the page is ever loaded again: proves the catch-up below happens in the same document.
      await tab.evaluate(() => Object.assign(window, { stillTheSamePage: true }));
    }

    // A crash: no goodbye on the sockets.
    await server.kill();
    for (const tab of tabs) await expect(reconnecting(tab)).toBeVisible();

    // Hold the tabs' next connection until the changes below are made, so they can only learn of them
    // from the fresh snapshots their resubscriptions get (the frames then go to the server unchanged).
    const holds = await Promise.all(tabs.map((tab) => holdLiveSocket(tab)));
    server = await startOwnServer(tempDir, server.port);
    const created = await createProjectViaApi(other.request, {
      name: uniqueProjectName('while away'),
      assignedUserIds: [user.uid],
    });
    const missedComment = `made while the tab was away ${uniqueProjectName('comment')}`;
    await addCommentViaApi(other.request, before.id, missedComment);
    for (const hold of holds) hold.release();

    await expect(projectCard(dashboard, created.name)).toBeVisible({ timeout: BACK_WITHIN_MS });
    await expect(projectPage.comment(projectTab, missedComment)).toBeVisible({ timeout: BACK_WITHIN_MS });
    for (const tab of tabs) await expect(reconnecting(tab)).toHaveCount(0);

    // Subscribed again, not just caught up once: a later change arrives live.
    const liveComment = `made after the restart ${uniqueProjectName('comment')}`;
    await addCommentViaApi(other.request, before.id, liveComment);
    await expect(projectPage.comment(projectTab, liveComment)).toBeVisible();

    for (const tab of tabs) {
      expect(await tab.evaluate(() => 'stillTheSamePage' in window)).toBe(true);
    }
  } finally {
    await closeAll(context, other);
    await server?.stop();
    rmSync(tempDir, { recursive: true, force: true });
  }
});
