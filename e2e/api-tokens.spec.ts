import type { Locator, Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { expect, test } from './support/fixtures';

/**
 * Issue 29, point 4: a member makes a personal API token in settings, copies its secret (shown once), a
 * script uses it, and the member revokes it.
 */

const tokensSection = (page: Page): Locator => page.getByRole('region', { name: 'API tokens' });

test('a token made in settings is shown once, works for a script, and stops when revoked', async ({
  context,
  signedIn: { page, user },
  playwright,
  baseURL,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/settings');
  const section = tokensSection(page);
  await expect(section.getByText('You have no API tokens.')).toBeVisible();

  // Bad input is refused in the form, with the field marked.
  await section.getByRole('button', { name: 'Create token' }).click();
  await expect(section.getByLabel('Name:')).toBeFocused();
  await expect(section.getByLabel('Name:')).toHaveAttribute('aria-invalid', 'true');

  await section.getByLabel('Name:').fill('Nightly report');
  await section.getByLabel('Scope:').selectOption({ label: 'Read and write' });
  await section.getByLabel('Expires after:').selectOption({ label: '7 days' });
  await section.getByRole('button', { name: 'Create token' }).click();

  const secretField = section.getByLabel('Token:');
  await expect(secretField).toBeFocused();
  const announcer = page.getByRole('status', { name: 'Announcements', exact: true });
  await expect(announcer).toContainText('Token "Nightly report" created.');
  await expect(section.getByText('this is the only time it is shown')).toBeVisible();
  const secret = await secretField.inputValue();
  expect(secret).toMatch(/^dojo_pat_[\w-]{43}$/);
  await section.getByRole('button', { name: 'Copy token' }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await expect(announcer).toContainText('Token copied.');
  await expectNoAxeViolations(page);

  const item = section.getByRole('listitem').filter({ hasText: 'Nightly report' });
  await expect(item).toContainText('Read and write');
  await expect(item).toContainText('Never used');

  // A script: no cookie, only the token.
  const script = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { authorization: `Bearer ${secret}` },
  });
  try {
    expect((await script.get('/api/projects')).status()).toBe(200);
    const created = await script.post('/api/projects', {
      data: {
        name: 'Made by a script',
        details: 'With a personal API token.',
        dueDate: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
        category: 'design',
        assignedUserIds: [user.uid],
      },
    });
    expect(created.status()).toBe(201);

    // Shown once: gone after 'Done', and not on the page after a reload either.
    await section.getByRole('button', { name: 'Done, I have copied it' }).click();
    await expect(section.getByLabel('Token:')).toHaveCount(0);
    await page.reload();
    await expect(item).toBeVisible();
    expect(await page.content()).not.toContain(secret);

    await item.getByRole('button', { name: 'Revoke' }).click();
    await expect(item.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await expect(item.getByRole('group', { name: 'Revoke "Nightly report"?' })).toBeVisible();
    await item.getByRole('button', { name: 'Yes, revoke' }).click();
    await expect(section.getByText('Revoked "Nightly report".')).toBeVisible();
    await expect(section.getByText('You have no API tokens.')).toBeVisible();
    expect((await script.get('/api/projects')).status()).toBe(401);
  } finally {
    await script.dispose();
  }
});
