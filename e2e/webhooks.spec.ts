import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expectNoAxeViolations } from './support/axe';
import { expect, newUser, signUpViaApi, test } from './support/fixtures';
import { createProjectViaApi } from './support/projects';
import { startOwnServer } from './support/server-process';

/**
 * The admin webhooks screen (issue 33): on a server of the file's own, whose first signup is the owner
 * (an admin), with OUTBOUND_ALLOW_PRIVATE so that it may deliver to this test's receiver on 127.0.0.1.
 */
test('an admin adds an endpoint, sees its secret once, and sees a project creation delivered', async ({
  browser,
  playwright,
}) => {
  const received: string[] = [];
  const receiver: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push(body);
      response.end('thanks');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const tempDir = mkdtempSync(path.join(os.tmpdir(), 'dojo-e2e-webhooks-'));
  const server = await startOwnServer(tempDir, 0, { OUTBOUND_ALLOW_PRIVATE: 'true' });
  const request = await playwright.request.newContext({ baseURL: server.url });
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 320, height: 800 } });
  try {
    const owner = await signUpViaApi(context.request, newUser('owner'));
    const page = await context.newPage();
    await page.goto('/admin/webhooks');
    await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
    await expect(page.getByText('No endpoints yet.')).toBeVisible();

    await page.getByLabel('Endpoint URL:').fill(receiverUrl);
    await page.getByRole('checkbox', { name: 'Member joined' }).uncheck();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'shown only once' })).toBeVisible();
    await expect(page.getByLabel(/Signing secret of/)).toHaveValue(/^whsec_/);
    await expect(page.getByRole('heading', { name: receiverUrl })).toBeVisible();
    // Nothing is wider than a 320 px screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await expectNoAxeViolations(page);

    await createProjectViaApi(context.request, { assignedUserIds: [owner.uid], name: 'Hooked from e2e' });
    await expect.poll(() => received.some((body) => body.includes('Hooked from e2e'))).toBe(true);
    await page.getByRole('button', { name: 'Show deliveries' }).click();
    await expect(page.getByText(/Project created: Delivered/)).toBeVisible();
    await expect(page.getByText('HTTP 200: thanks')).toBeVisible();
  } finally {
    await context.close();
    await request.dispose();
    await server.stop();
    rmSync(tempDir, { recursive: true, force: true });
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
});
