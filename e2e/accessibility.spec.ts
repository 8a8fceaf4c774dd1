import { expectNoAxeViolations } from './support/axe';
import { expect, newSignedInContext, test } from './support/fixtures';
import { allUsersHeading, onlineDot, userRow } from './support/ui';

test.describe('accessibility (axe)', () => {
  for (const [path, heading] of [
    ['/login', 'login'],
    ['/signup', 'sign up'],
  ] as const) {
    test(`${path} has no axe violations`, async ({ browser }) => {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.goto(path);
        await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
        await expectNoAxeViolations(page);
      } finally {
        await context.close();
      }
    });
  }

  test('the signed-in shell (navbar, sidebar, dashboard, All Users) has no axe violations', async ({
    browser,
  }) => {
    const { context, page, user } = await newSignedInContext(browser);
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
