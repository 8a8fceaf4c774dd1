import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { secondStepMessages } from '../src/common/second-step';
import { totpCodeOf } from '../test/support/second-step';
import { expectNoAxeViolations } from './support/axe';
import { expect, newUser, signUpViaApi, test } from './support/fixtures';
import { closeAll } from './support/projects';
import { startOwnServer } from './support/server-process';
import { alertWith, fillLoginForm, greeting, navbar } from './support/ui';

/**
 * Issue 29, point 3: a member turns on TOTP in settings (the test reads the setup key off the page and makes
 * the codes an authenticator app would), logs out, and logs in with the password and a code, then with a
 * recovery code.
 */

const twoStepSection = (page: Page): Locator => page.getByRole('region', { name: 'Two-step sign-in' });

async function logOut(page: Page): Promise<void> {
  await navbar.logoutButton(page).click();
  await expect(page).toHaveURL('/login');
}

test('TOTP turned on in settings is asked for at login; a recovery code works once instead', async ({
  signedIn: { page, user },
}) => {
  await page.goto('/settings');
  const section = twoStepSection(page);
  await expect(section.getByText('Two-step sign-in is off.')).toBeVisible();
  await section.getByRole('button', { name: 'Turn on two-step sign-in' }).click();

  await expect(section.getByRole('img', { name: /QR code for your authenticator app/ })).toBeVisible();
  const secret = ((await section.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const codeField = section.getByLabel('Then enter the 6-digit code the app shows:');
  await expect(codeField).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(codeField).toHaveAttribute('inputmode', 'numeric');
  await expectNoAxeViolations(page);

  // A wrong code leaves it off and says so at the field.
  await codeField.fill(totpCodeOf(secret, 10));
  await section.getByRole('button', { name: 'Turn on', exact: true }).click();
  await expect(section.getByText(secondStepMessages.codeWrong)).toBeVisible();
  await expect(codeField).toHaveAttribute('aria-invalid', 'true');

  await codeField.fill(totpCodeOf(secret));
  await section.getByRole('button', { name: 'Turn on', exact: true }).click();
  const codes = section.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  await expect(section.getByRole('heading', { name: 'Your recovery codes' })).toBeFocused();
  const recoveryCode = ((await codes.first().textContent()) ?? '').trim();
  await expectNoAxeViolations(page);
  await section.getByRole('button', { name: 'I have saved my recovery codes' }).click();
  await expect(section.getByText(/Two-step sign-in is on/)).toBeVisible();

  // Password, then a code from the app: the enrolment used this step's code, so the app's next one.
  await logOut(page);
  await fillLoginForm(page, user.email, user.password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
  const appCode = page.getByLabel('Code from your authenticator app:');
  await expect(appCode).toBeFocused();
  await expectNoAxeViolations(page);
  await appCode.fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText(secondStepMessages.codeWrong)).toBeVisible();
  await appCode.fill(totpCodeOf(secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL('/');
  await expect(greeting(page, user.displayName)).toBeVisible();

  // Password, then a recovery code; the same code a second time is refused.
  for (const attempt of ['first', 'again'] as const) {
    await logOut(page);
    await fillLoginForm(page, user.email, user.password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code:').fill(recoveryCode);
    await page.getByRole('button', { name: 'Verify' }).click();
    if (attempt === 'again') {
      await expect(alertWith(page, secondStepMessages.codeWrong)).toBeVisible();
      await expect(page).toHaveURL('/login');
      break;
    }
    await expect(page).toHaveURL('/');
    await expect(greeting(page, user.displayName)).toBeVisible();
  }
});

test('an admin requires a second step for everyone: a member sets up TOTP within the login, sees the recovery codes, and is in; an admin turns it off for one who lost it', async ({
  browser,
}) => {
  // A server of its own: its first signup is the admin, and the policy reaches no other test's logins.
  const tempDir = mkdtempSync(path.join(os.tmpdir(), 'dojo-e2e-two-step-'));
  const server = await startOwnServer(tempDir);
  const adminContext = await browser.newContext({ baseURL: server.url });
  const memberContext = await browser.newContext({ baseURL: server.url });
  try {
    await signUpViaApi(adminContext.request, newUser('admin'));
    const member = await signUpViaApi(memberContext.request, newUser('member'));
    await memberContext.clearCookies();

    const admin = await adminContext.newPage();
    await admin.goto('/admin/invitations');
    const policy = admin.getByRole('region', { name: 'Two-step sign-in' });
    await expect(policy.getByRole('radio', { name: 'Off', exact: true })).toBeChecked();
    await policy.getByRole('radio', { name: 'For everyone' }).check();
    await policy.getByRole('button', { name: 'Save two-step rule' }).click();
    await expect(policy.getByRole('status')).toContainText('Saved');
    await expectNoAxeViolations(admin);

    const page = await memberContext.newPage();
    await page.goto('/login');
    await fillLoginForm(page, member.email, member.password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Set up two-step sign-in' })).toBeVisible();
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expectNoAxeViolations(page);
    await page.getByLabel('Then enter the 6-digit code the app shows:').fill(totpCodeOf(secret));
    await page.getByRole('button', { name: 'Turn on and sign in' }).click();

    // Signed in, but the recovery codes stay on screen until the member says they are saved.
    await expect(page.getByRole('heading', { name: 'Your recovery codes' })).toBeFocused();
    await expect(page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
    await page.getByRole('button', { name: 'I have saved them: continue' }).click();
    await expect(page).toHaveURL('/');
    await expect(greeting(page, member.displayName)).toBeVisible();

    await page.goto('/settings');
    await expect(twoStepSection(page).getByText(/Two-step sign-in is on/)).toBeVisible();

    // The member loses the phone and the codes: with the policy off again, an admin turns their TOTP off.
    await admin.reload();
    await policy.getByRole('radio', { name: 'Off', exact: true }).check();
    await policy.getByRole('button', { name: 'Save two-step rule' }).click();
    await expect(policy.getByRole('status')).toContainText('Saved');
    await admin.goto('/admin/members');
    const row = admin.getByRole('row').filter({ hasText: member.email });
    await row.getByRole('button', { name: 'Turn off two-step' }).click();
    await expect(
      admin.getByRole('status').filter({ hasText: `Two-step sign-in is off for ${member.displayName}` }),
    ).toBeVisible();

    await logOut(page);
    await fillLoginForm(page, member.email, member.password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page).toHaveURL('/');
    await expect(greeting(page, member.displayName)).toBeVisible();
  } finally {
    await closeAll(adminContext, memberContext);
    await server.stop();
    rmSync(tempDir, { recursive: true, force: true });
  }
});
