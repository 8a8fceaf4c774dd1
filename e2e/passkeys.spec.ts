import type { BrowserContext, CDPSession, Locator, Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { expect, newUser, signUpViaApi, test } from './support/fixtures';
import { alertWith, fillLoginForm, greeting, navbar } from './support/ui';

/**
 * Issue 29, point 2: a member adds a passkey in settings with Chromium's virtual authenticator (what a
 * platform authenticator with a fingerprint reader does), signs out, and signs in with the passkey alone;
 * renames and removes it; a removed passkey signs in no more.
 *
 * WebAuthn needs a host name for its relying party (an IP address is not one), so the test's browser opens
 * the server as `localhost`; with no PUBLIC_URL the server takes that host name from the request.
 */

// The words of the product (src/common/passkeys.ts), typed here so the test checks them.
const unknownPasskey =
  'This passkey is not registered here. Sign in another way, then add it in Account settings.';

const passkeysSection = (page: Page): Locator => page.getByRole('region', { name: 'Passkeys' });

/** A browser context on `localhost`, with a virtual authenticator in its page that verifies the user. */
async function browserWithAuthenticator(
  newContext: (options: { baseURL: string }) => Promise<BrowserContext>,
  baseURL: string,
): Promise<{ context: BrowserContext; page: Page; cdp: CDPSession; authenticatorId: string }> {
  const url = new URL(baseURL);
  url.hostname = 'localhost';
  const context = await newContext({ baseURL: url.origin });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { context, page, cdp, authenticatorId };
}

async function logOut(page: Page): Promise<void> {
  await navbar.logoutButton(page).click();
  await expect(navbar.loginLink(page)).toBeVisible();
}

test('a passkey added in settings signs in alone after logging out; renamed, then removed, it signs in no more', async ({
  browser,
  baseURL,
}) => {
  const { context, page, cdp, authenticatorId } = await browserWithAuthenticator(
    (options) => browser.newContext(options),
    baseURL ?? '',
  );
  try {
    const user = await signUpViaApi(context.request, newUser('passkey'));
    await page.goto('/settings');
    const section = passkeysSection(page);
    await expect(section.getByText('You have no passkeys.')).toBeVisible();

    // The name is the browser's by default; the member's own choice replaces it.
    const name = section.getByLabel('Name:');
    await expect(name).toHaveValue(/^\w+ on \w+$/);
    await name.fill('');
    await section.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(name).toBeFocused();
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await name.fill('Work laptop');
    await section.getByRole('button', { name: 'Add a passkey' }).click();

    const item = section.getByRole('listitem').filter({ hasText: 'Work laptop' });
    await expect(item).toContainText('Never used');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]?.isResidentCredential).toBe(true);
    expect(credentials[0]?.rpId).toBe('localhost');
    await expectNoAxeViolations(page);

    // Signed out, the passkey alone signs in: no email, no password.
    await logOut(page);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(greeting(page, user.displayName)).toBeVisible();

    await page.goto('/settings');
    await expect(item).toContainText('Last used');
    await item.getByRole('button', { name: 'Rename' }).click();
    const newName = section.getByLabel('New name:');
    await expect(newName).toBeFocused();
    await newName.fill('Old laptop');
    await section.getByRole('button', { name: 'Save name' }).click();
    const renamed = section.getByRole('listitem').filter({ hasText: 'Old laptop' });
    await expect(renamed).toBeVisible();
    await expect(renamed.getByRole('button', { name: 'Rename' })).toBeFocused();

    await renamed.getByRole('button', { name: 'Remove' }).click();
    const confirm = section.getByRole('group', { name: 'Remove "Old laptop"?' });
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await expectNoAxeViolations(page);
    await confirm.getByRole('button', { name: 'Yes, remove' }).click();
    await expect(section.getByText('You have no passkeys.')).toBeVisible();
    await expect(section.getByRole('status')).toContainText('Removed "Old laptop"');

    // The device still holds the passkey, but the server no longer knows it.
    await logOut(page);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(alertWith(page, unknownPasskey)).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  } finally {
    await context.close();
  }
});

test('a member with a passkey gives it as the second step after the password', async ({
  browser,
  baseURL,
}) => {
  const { context, page } = await browserWithAuthenticator(
    (options) => browser.newContext(options),
    baseURL ?? '',
  );
  try {
    const user = await signUpViaApi(context.request, newUser('passkey-step'));
    await page.goto('/settings');
    const section = passkeysSection(page);
    await section.getByLabel('Name:').fill('Laptop');
    await section.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(section.getByRole('listitem').filter({ hasText: 'Laptop' })).toBeVisible();

    await logOut(page);
    await page.goto('/login');
    await fillLoginForm(page, user.email, user.password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await expect(greeting(page, user.displayName)).toBeVisible();
  } finally {
    await context.close();
  }
});
