import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { SSO_ERROR_MESSAGES } from '../src/common/single-sign-on';
import { freePort, providerEnv, startTestProvider, type TestProvider } from '../test/support/oidc-provider';
import { test as base, expect, newUser, signUpViaApi } from './support/fixtures';
import { startOwnServer, type OwnServer } from './support/server-process';
import { alertWith, fillLoginForm, greeting } from './support/ui';

/**
 * Signing in with an OpenID provider in Chromium, end to end: The Dojo's button, the real provider's own
 * login and consent pages (oidc-provider, in this process), and back, signed in. The server is the test's
 * own, configured for that provider (its public URL must be known before the provider registers it).
 */

let provider: TestProvider;
let server: OwnServer;
/** A second install on the same provider, whose first account (its admin) the admin test makes. */
let adminPort: number;
const tempDirs: string[] = [];

async function startServerFor(port: number): Promise<OwnServer> {
  const tempDir = mkdtempSync(path.join(os.tmpdir(), 'dojo-e2e-sso-'));
  tempDirs.push(tempDir);
  return startOwnServer(tempDir, port, {
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ...providerEnv(provider, 'corp', { NAME: 'Corp ID' }),
  });
}

/**
 * The provider and the server, once per worker: a `beforeAll` would start them for every test, since with
 * `fullyParallel` every test is a group of its own and its `afterAll` runs right after it. The tests share
 * them; each signs in with an account of its own.
 */
const test = base.extend<object, { providerAndServer: void }>({
  providerAndServer: [
    // Playwright reads a fixture's dependencies from its first parameter, which must be an object
    // pattern: this one needs none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      try {
        const port = await freePort();
        adminPort = await freePort();
        provider = await startTestProvider({
          accounts: {},
          redirectUris: [port, adminPort].map(
            (each) => `http://127.0.0.1:${each}/api/auth/oidc/corp/callback`,
          ),
        });
        server = await startServerFor(port);
        await use();
      } finally {
        await server?.stop();
        await provider?.stop();
        for (const tempDir of tempDirs) rmSync(tempDir, { recursive: true, force: true });
      }
    },
    { scope: 'worker', auto: true },
  ],
});

/** At the provider's own pages: its login form (any password), then, unless `deny`, its consent. */
async function throughProvider(page: Page, login: string, deny = false): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Sign-in' })).toBeVisible();
  await page.getByPlaceholder('Enter any login').fill(login);
  await page.getByPlaceholder('and password').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await expect(page.getByRole('heading', { name: 'Authorize' })).toBeVisible();
  if (deny) await page.getByRole('link', { name: '[ Cancel ]' }).click();
  else await page.getByRole('button', { name: 'Continue' }).click();
}

test('a first sign-in with the provider makes the account and lands on the dashboard, signed in', async ({
  browser,
}) => {
  const id = `sso${Date.now().toString(36)}`;
  const displayName = `Corp ${id}`;
  provider.setAccount(id, { email: `${id}@example.com`, email_verified: true, name: displayName });
  const context = await browser.newContext({ baseURL: server.url });
  try {
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Sign in with Corp ID' }).click();
    await throughProvider(page, id);
    await expect(page).toHaveURL(`${server.url}/`);
    await expect(greeting(page, displayName)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Dashboard', exact: true })).toBeVisible();
  } finally {
    await context.close();
  }
});

test('cancelling at the provider comes back to the login page with a clear message, signed out', async ({
  browser,
}) => {
  const id = `shy${Date.now().toString(36)}`;
  provider.setAccount(id, { email: `${id}@example.com`, email_verified: true, name: `Shy ${id}` });
  const context = await browser.newContext({ baseURL: server.url });
  try {
    const page = await context.newPage();
    await page.goto('/signup');
    await page.getByRole('link', { name: 'Sign in with Corp ID' }).click();
    await throughProvider(page, id, true);
    await expect(page).toHaveURL(`${server.url}/login?sso_error=denied`);
    await expect(page.getByRole('alert')).toHaveText(SSO_ERROR_MESSAGES.denied);
    await expect(page.getByRole('heading', { name: 'login', exact: true })).toBeVisible();
  } finally {
    await context.close();
  }
});

test("an admin requires single sign-on; the login page then leads with the provider and refuses members' passwords", async ({
  browser,
}) => {
  const install = await startServerFor(adminPort);
  const adminContext = await browser.newContext({ baseURL: install.url });
  const memberContext = await browser.newContext({ baseURL: install.url });
  try {
    // The install's first account is its admin; the second a member.
    await signUpViaApi(adminContext.request, newUser('ssoadmin'));
    const member = newUser('ssomember');
    await signUpViaApi(memberContext.request, member);
    await memberContext.request.post('/api/auth/logout');

    const admin = await adminContext.newPage();
    await admin.goto('/admin/invitations');
    const required = admin.getByRole('checkbox', { name: 'Require single sign-on' });
    await expect(required).not.toBeChecked();
    await required.check();
    await admin
      .getByRole('region', { name: 'Single sign-on' })
      .getByRole('button', { name: 'Save single sign-on rule' })
      .click();
    await expect(admin.getByText('Saved: single sign-on is required.')).toBeVisible();

    const page = await memberContext.newPage();
    await page.goto('/login');
    await expect(
      page.getByText('This team signs in with single sign-on. Password sign-in is for admins:'),
    ).toBeVisible();
    await fillLoginForm(page, member.email, member.password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(alertWith(page, 'Sign in with Corp ID')).toBeVisible();
    await expect(page).toHaveURL('/login');
  } finally {
    await adminContext.close();
    await memberContext.close();
    await install.stop();
  }
});
