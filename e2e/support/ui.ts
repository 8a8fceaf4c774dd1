import type { Locator, Page } from '@playwright/test';
import type { FilePayload } from './files';
import type { NewUser } from './fixtures';

/** Locators for the DOM contract of the web client (labels and texts come from the spec). */

export const navbar = {
  title: (page: Page) => page.getByText('The Dojo', { exact: true }),
  loginLink: (page: Page) => page.getByRole('link', { name: 'Login', exact: true }),
  signupLink: (page: Page) => page.getByRole('link', { name: 'Signup', exact: true }),
  logoutButton: (page: Page) => page.getByRole('button', { name: 'Logout', exact: true }),
};

export const alertWith = (page: Page, text: string): Locator =>
  page.getByRole('alert').filter({ hasText: text });

export const greeting = (page: Page, displayName: string): Locator =>
  page.getByText(`Hey ${displayName}`, { exact: true });

export async function fillSignupForm(page: Page, user: NewUser, thumbnail?: FilePayload): Promise<void> {
  await page.getByLabel('email:', { exact: true }).fill(user.email);
  await page.getByLabel('password:', { exact: true }).fill(user.password);
  await page.getByLabel('display name:', { exact: true }).fill(user.displayName);
  if (thumbnail) await page.getByLabel('Profile thumbnail:', { exact: true }).setInputFiles(thumbnail);
}

export async function fillLoginForm(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('email:', { exact: true }).fill(email);
  await page.getByLabel('password:', { exact: true }).fill(password);
}

export const allUsersHeading = (page: Page): Locator =>
  page.getByRole('heading', { name: 'All Users', exact: true });

/**
 * A user's row in the 'All Users' panel: the nearest element around the exact display name that also
 * holds an image (the avatar, and the 'online' dot when the user is online).
 */
export const userRow = (page: Page, displayName: string): Locator =>
  // Within the panel: project cards name their assignees as text beside an avatar too.
  page
    .getByRole('complementary', { name: 'All Users', exact: true })
    .getByText(displayName, { exact: true })
    .locator('xpath=ancestor::*[.//img or .//*[@role="img"]][1]');

/** A user's state in words after their name ('online' or 'offline'); the green dot is its picture. */
export const onlineDot = (row: Locator): Locator => row.getByText('online', { exact: true });
