import { randomBytes } from 'node:crypto';
import {
  test as base,
  expect,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Page,
} from '@playwright/test';
import { pngFile, type FilePayload } from './files';

export interface NewUser {
  email: string;
  password: string;
  displayName: string;
}

export interface TestUser extends NewUser {
  uid: string;
}

/** Unique credentials; the display name is unique too, so a test can find its user in 'All Users'. */
export function newUser(label = 'user'): NewUser {
  const id = `${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
  return {
    email: `e2e-${label}-${id}@example.com`,
    password: `pw-${randomBytes(9).toString('base64url')}`,
    displayName: `${label} ${id.slice(-8)}`,
  };
}

/**
 * Signs up through the real API (multipart, like the web client). With `context.request` the session
 * cookie lands in that browser context; with the standalone `request` fixture no browser is signed in.
 */
export async function signUpViaApi(
  request: APIRequestContext,
  user: NewUser = newUser(),
  thumbnail: FilePayload = pngFile(),
): Promise<TestUser> {
  const response = await request.post('/api/auth/signup', {
    multipart: {
      email: user.email,
      password: user.password,
      displayName: user.displayName,
      thumbnail,
    },
  });
  if (!response.ok()) {
    throw new Error(`signup of ${user.email} failed: ${response.status()} ${await response.text()}`);
  }
  const body = (await response.json()) as { user: { uid: string } };
  return { ...user, uid: body.user.uid };
}

/** Signups in flight at once: enough to keep the server's scrypt threads busy, few enough to stay polite. */
const SIGNUP_BATCH = 8;

/**
 * Signs every user up through the real API, `SIGNUP_BATCH` at a time: setting up a team of 50 must not
 * take 50 round trips of scrypt one after another (a test's time is for what it checks). Same order out.
 */
export async function signUpAllViaApi(request: APIRequestContext, users: NewUser[]): Promise<TestUser[]> {
  const signedUp: TestUser[] = [];
  for (let start = 0; start < users.length; start += SIGNUP_BATCH) {
    const batch = users.slice(start, start + SIGNUP_BATCH);
    signedUp.push(...(await Promise.all(batch.map((user) => signUpViaApi(request, user)))));
  }
  return signedUp;
}

export interface SignedInBrowser {
  context: BrowserContext;
  page: Page;
  user: TestUser;
}

/** A new browser context (a second "person") with a freshly signed-up user's session in it. */
export async function newSignedInContext(
  browser: Browser,
  user: NewUser = newUser(),
): Promise<SignedInBrowser> {
  const context = await browser.newContext();
  const signedUp = await signUpViaApi(context.request, user);
  return { context, page: await context.newPage(), user: signedUp };
}

/**
 * Holds matching requests until `release()` so a test can see the pending state of the UI (disabled
 * button, 'loading'), then lets them through to the real server unchanged.
 */
export async function holdRequests(page: Page, urlPattern: string): Promise<{ release(): void }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(urlPattern, async (route) => {
    await released;
    await route.continue();
  });
  return { release };
}

interface Fixtures {
  /** A user that exists on the server; the test's `page` is NOT signed in. */
  user: TestUser;
  /** The test's `page`, signed in as a fresh user (`signedIn.user`). */
  signedIn: { page: Page; user: TestUser };
}

export const test = base.extend<Fixtures>({
  user: async ({ request }, use) => {
    await use(await signUpViaApi(request, newUser('member')));
  },
  signedIn: async ({ context, page }, use) => {
    const user = await signUpViaApi(context.request, newUser('member'));
    await use({ page, user });
  },
});

export { expect };
