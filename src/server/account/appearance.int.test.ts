import { describe, expect, it } from 'vitest';
import { appearanceMessages, THEME_COOKIE, type Theme } from '../../common/appearance';
import { signUpClient, type SignedInClient } from '../../../test/support/clients';
import { postSignup } from '../../../test/support/fixtures';
import { useTestTeam } from '../../../test/support/test-team';

/**
 * The member's theme (docs/decisions/069-dark-theme-and-room-to-work.md) on the real server, on SQLite and
 * on PostgreSQL: 'system' until pinned, kept on the account, mirrored into the `dojo_theme` cookie, refused
 * with a message when it is no theme, and nobody else's.
 */
const team = useTestTeam({ ada: 'Ada' });

let members = 0;
async function newMember(): Promise<SignedInClient> {
  members += 1;
  return signUpClient(team.server.url, `Painter ${members}`);
}

async function call(member: SignedInClient | undefined, method: 'GET' | 'PUT', body?: unknown) {
  const cookie = member?.client.transport.cookieHeader();
  const response = await fetch(`${team.server.url}/api/account/appearance`, {
    method,
    headers: {
      ...(cookie ? { cookie } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : undefined) as unknown,
    setCookie: response.headers.getSetCookie().find((line) => line.startsWith(`${THEME_COOKIE}=`)),
  };
}

const themeOf = async (member: SignedInClient): Promise<Theme> => {
  const answer = await call(member, 'GET');
  expect(answer.status).toBe(200);
  return (answer.body as { appearance: { theme: Theme } }).appearance.theme;
};

/** The theme cookie a password sign-in's answer sets. */
async function themeCookieOfSignIn(member: SignedInClient): Promise<string | undefined> {
  const response = await fetch(`${team.server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: member.email, password: member.password }),
  });
  expect(response.status).toBe(200);
  return response.headers.getSetCookie().find((line) => line.startsWith(`${THEME_COOKIE}=`));
}

describe('the theme cookie at sign-in', () => {
  it("sets the account's theme with the session, so a new browser's first page has it", async () => {
    const ada = await newMember();
    expect(await themeCookieOfSignIn(ada)).toMatch(/^dojo_theme=system;.*Path=\//);
    await call(ada, 'PUT', { theme: 'dark' });
    const dark = await themeCookieOfSignIn(ada);
    expect(dark).toMatch(/^dojo_theme=dark;.*Path=\//);
    expect(dark).toMatch(/SameSite=Lax/i);
    expect(dark).not.toMatch(/HttpOnly/i);
    await call(ada, 'PUT', { theme: 'light' });
    expect(await themeCookieOfSignIn(ada)).toMatch(/^dojo_theme=light;/);
  });

  it('is set by a signup too, for the new account’s default', async () => {
    const response = await postSignup(team.server.url);
    expect(response.status).toBe(201);
    expect(response.headers.getSetCookie().find((line) => line.startsWith(`${THEME_COOKIE}=`))).toMatch(
      /^dojo_theme=system;/,
    );
  });
});

describe('PUT /api/account/appearance', () => {
  it("starts at 'system', keeps a pinned theme and mirrors it into the cookie", async () => {
    const ada = await newMember();
    expect(await themeOf(ada)).toBe('system');

    const pinned = await call(ada, 'PUT', { theme: 'dark' });
    expect(pinned.status).toBe(200);
    expect(pinned.body).toEqual({ appearance: { theme: 'dark' } });
    expect(pinned.setCookie).toMatch(/^dojo_theme=dark;.*Path=\//);
    expect(pinned.setCookie).not.toMatch(/HttpOnly/i);
    expect(await themeOf(ada)).toBe('dark');

    const light = await call(ada, 'PUT', { theme: 'light' });
    expect(light.setCookie).toMatch(/^dojo_theme=light;/);
    expect(await themeOf(ada)).toBe('light');

    // Back to the device's preference: the cookie says 'system', so pages follow prefers-color-scheme again
    // and the app knows the choice without asking.
    const system = await call(ada, 'PUT', { theme: 'system' });
    expect(system.body).toEqual({ appearance: { theme: 'system' } });
    expect(system.setCookie).toMatch(/^dojo_theme=system;.*Path=\//);
    expect(await themeOf(ada)).toBe('system');
  });

  it('refuses what is no theme with a message and changes nothing', async () => {
    const ada = await newMember();
    await call(ada, 'PUT', { theme: 'dark' });
    for (const body of [{ theme: 'sepia' }, { theme: '' }, {}, { theme: 1 }, 'dark']) {
      const refused = await call(ada, 'PUT', body);
      expect(refused.status).toBe(400);
      expect(refused.setCookie).toBeUndefined();
      expect((refused.body as { error: { fields?: Record<string, string> } }).error.fields).toEqual(
        typeof body === 'object' ? { theme: appearanceMessages.themeInvalid } : expect.anything(),
      );
    }
    expect(await themeOf(ada)).toBe('dark');
  });

  it("changes only the caller's theme", async () => {
    const [ada, bob] = [await newMember(), await newMember()];
    await call(ada, 'PUT', { theme: 'dark' });
    await call(bob, 'PUT', { theme: 'light' });
    expect(await themeOf(ada)).toBe('dark');
    expect(await themeOf(bob)).toBe('light');
    expect(await themeOf(team.ada)).toBe('system');
  });

  it('answers 401 to a visitor', async () => {
    expect((await call(undefined, 'GET')).status).toBe(401);
    expect((await call(undefined, 'PUT', { theme: 'dark' })).status).toBe(401);
  });
});
