import { expect, newSignedInContext, signUpViaApi, test } from './support/fixtures';
import { closeAll, earlyUser } from './support/projects';
import { allUsersHeading, fillLoginForm, greeting, navbar, onlineDot, userRow } from './support/ui';

/**
 * playwright.config.ts runs the server with PRESENCE_GRACE_MS=4000: a user whose last tab is gone goes
 * offline between 2 and 3 seconds later, at a presence sweep. The test waits for sweeps, never for a time.
 */

test('presence follows logout, a second login, and the closing of the last of two tabs', async ({
  browser,
}) => {
  const watcherSide = await newSignedInContext(browser, earlyUser('watcher'));
  const firstVisit = await newSignedInContext(browser, earlyUser('presence'));
  const secondVisit = await browser.newContext();
  try {
    const { user } = firstVisit;
    const watcher = watcherSide.page;
    await watcher.goto('/');
    await expect(allUsersHeading(watcher)).toBeVisible();
    const row = userRow(watcher, user.displayName);
    const dot = onlineDot(row);

    await firstVisit.page.goto('/');
    await expect(greeting(firstVisit.page, user.displayName)).toBeVisible();
    await expect(dot).toBeVisible();

    // Logout: the dot goes at once (no grace period for an explicit logout), live.
    await navbar.logoutButton(firstVisit.page).click();
    await expect(firstVisit.page).toHaveURL('/login');
    await expect(dot).toHaveCount(0);
    await expect(row).toBeVisible();
    await firstVisit.context.close();

    // Log in again, in a new browser context with two tabs.
    const tabOne = await secondVisit.newPage();
    await tabOne.goto('/login');
    await fillLoginForm(tabOne, user.email, user.password);
    await tabOne.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(greeting(tabOne, user.displayName)).toBeVisible();
    const tabTwo = await secondVisit.newPage();
    await tabTwo.goto('/');
    await expect(greeting(tabTwo, user.displayName)).toBeVisible();
    await expect(onlineDot(userRow(tabTwo, user.displayName))).toBeVisible();
    await expect(dot).toBeVisible();

    // One tab closes: the other still holds the user online, past a sweep. A marker member signed up
    // after the close, with no tab at all, goes offline only at a sweep that would also have dropped it.
    await tabOne.close();
    const markerSide = await browser.newContext();
    try {
      const marker = await signUpViaApi(markerSide.request, earlyUser('marker'));
      const markerRow = userRow(watcher, marker.displayName);
      await expect(markerRow).toBeVisible();
      await expect(onlineDot(markerRow)).toHaveCount(0);
    } finally {
      await markerSide.close();
    }
    await expect(dot).toBeVisible();

    // The last tab goes: offline after the grace period, live on the watcher's panel.
    await secondVisit.close();
    await expect(dot).toHaveCount(0);
    await expect(row).toBeVisible();
    // The watcher, still connected, stays online throughout.
    await expect(onlineDot(userRow(watcher, watcherSide.user.displayName))).toBeVisible();
  } finally {
    await closeAll(watcherSide.context, firstVisit.context, secondVisit);
  }
});
