import type { Locator, Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { expect, test } from './support/fixtures';

/**
 * Issue 30, point 2: a member turns the private calendar feed on in settings, copies the address shown
 * once, a calendar client fetches it, and a reset ends the old address.
 */

const feedSection = (page: Page): Locator => page.getByRole('region', { name: 'Calendar feed' });

test('the feed turned on in settings is shown once, serves iCalendar, and a reset ends the old address', async ({
  context,
  signedIn: { page },
  playwright,
  baseURL,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/settings');
  const section = feedSection(page);
  await expect(section.getByText('Off.')).toBeVisible();
  await section.getByRole('radio', { name: 'Only projects assigned to me' }).check();
  await section.getByRole('button', { name: 'Turn on calendar feed' }).click();

  const address = section.getByLabel('Address:');
  await expect(address).toBeFocused();
  await expect(section.getByText('Anyone with this link can see')).toBeVisible();
  const url = await address.inputValue();
  expect(url).toMatch(/\/api\/calendar\/[\w-]{43}\.ics$/);
  await section.getByRole('button', { name: 'Copy address' }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  await expectNoAxeViolations(page);

  // A calendar client: no cookie, only the address.
  const client = await playwright.request.newContext({ baseURL });
  try {
    const feed = await client.get(url);
    expect(feed.status()).toBe(200);
    expect(feed.headers()['content-type']).toBe('text/calendar; charset=utf-8');
    expect(await feed.text()).toContain('BEGIN:VCALENDAR\r\n');

    await section.getByRole('button', { name: 'Done, I have copied it' }).click();
    await expect(section.getByLabel('Address:')).toHaveCount(0);
    await section.getByRole('button', { name: 'Reset address' }).click();
    const confirm = section.getByRole('group', { name: /Reset the address\?/ });
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await confirm.getByRole('button', { name: 'Reset address' }).click();
    await expect(section.getByLabel('Address:')).toBeFocused();
    const newUrl = await section.getByLabel('Address:').inputValue();
    expect(newUrl).not.toBe(url);
    expect((await client.get(url)).status()).toBe(404);
    expect((await client.get(newUrl)).status()).toBe(200);

    await section.getByRole('button', { name: 'Turn off' }).click();
    await expect(section.getByText('Off.')).toBeVisible();
    expect((await client.get(newUrl)).status()).toBe(404);
  } finally {
    await client.dispose();
  }
});
