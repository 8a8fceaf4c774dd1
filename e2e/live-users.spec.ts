import type { WebSocketRoute } from '@playwright/test';
import { pngFile } from './support/files';
import { expect, newSignedInContext, signUpViaApi, test } from './support/fixtures';
import { earlyUser } from './support/projects';
import { allUsersHeading, fillSignupForm, greeting, navbar, onlineDot, userRow } from './support/ui';

test('a signup in another browser appears live, online, in All Users and goes offline at logout', async ({
  browser,
}) => {
  const first = await newSignedInContext(browser, earlyUser('watcher'));
  const secondContext = await browser.newContext();
  try {
    const watcher = first.page;
    await watcher.goto('/');
    await expect(allUsersHeading(watcher)).toBeVisible();
    await expect(onlineDot(userRow(watcher, first.user.displayName))).toBeVisible();

    const newcomer = earlyUser('newcomer');
    await expect(watcher.getByText(newcomer.displayName, { exact: true })).toHaveCount(0);

    const second = await secondContext.newPage();
    await second.goto('/signup');
    await fillSignupForm(second, newcomer, pngFile());
    await second.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(greeting(second, newcomer.displayName)).toBeVisible();

    // No reload in the first browser: the live subscription delivers the new user and their presence.
    const newcomerRow = userRow(watcher, newcomer.displayName);
    await expect(newcomerRow).toBeVisible();
    await expect(onlineDot(newcomerRow)).toBeVisible();

    await navbar.logoutButton(second).click();
    await expect(second).toHaveURL('/login');
    await expect(onlineDot(newcomerRow)).toHaveCount(0);
    await expect(newcomerRow).toBeVisible();
  } finally {
    await secondContext.close();
    await first.context.close();
  }
});

test("'All Users' says 'Loading users...' until the live snapshot arrives", async ({ context, page }) => {
  const user = await signUpViaApi(context.request, earlyUser('loader'));
  // Holds the real /live connection (nothing is mocked: once released, every frame goes to the server
  // and back unchanged) so the loading state is observable.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.routeWebSocket(/\/live$/, async (socket) => {
    const early: Array<string | Buffer> = [];
    let server: WebSocketRoute | undefined = undefined;
    socket.onMessage((message) => (server ? server.send(message) : early.push(message)));
    await released;
    server = socket.connectToServer();
    for (const message of early) server.send(message);
  });

  await page.goto('/');
  await expect(allUsersHeading(page)).toBeVisible();
  await expect(page.getByText('Loading users...', { exact: true })).toBeVisible();
  await expect(page.getByText(user.displayName, { exact: true })).toHaveCount(0);

  release();
  await expect(onlineDot(userRow(page, user.displayName))).toBeVisible();
  await expect(page.getByText('Loading users...', { exact: true })).toHaveCount(0);
});
