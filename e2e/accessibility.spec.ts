import { expectNoAxeViolations } from './support/axe';
import { expect, newSignedInContext, test } from './support/fixtures';
import { earlyUser } from './support/projects';
import { allUsersHeading, onlineDot, userRow } from './support/ui';

test.describe('accessibility (axe)', () => {
  // The signed-out screens (/login, /signup, /reset-password, the not-found page) are axe-checked with
  // their h1 in announcements.spec.ts ('every screen has its own h1 and no axe violations'): once is enough.
  test('the signed-in shell (navbar, sidebar, dashboard, All Users) has no axe violations', async ({
    browser,
  }) => {
    const { context, page, user } = await newSignedInContext(browser, earlyUser('shell'));
    try {
      await page.goto('/');
      await expect(page.getByRole('heading', { name: 'Dashboard', exact: true })).toBeVisible();
      await expect(allUsersHeading(page)).toBeVisible();
      await expect(onlineDot(userRow(page, user.displayName))).toBeVisible();
      await expectNoAxeViolations(page);
    } finally {
      await context.close();
    }
  });
});
