import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../common';
import { errorOf, newClient } from '../../../test/support/clients';
import { makePng, uniqueEmail } from '../../../test/support/fixtures';
import { startTestServer, type TestServer } from '../../../test/support/test-server';

// docs/decisions/046-members-who-leave.md and docs/deploy.md: a fresh install started with
// SIGNUP_POLICY=invitation logs a one-time link for its first admin.

const PUBLIC_URL = 'http://dojo.test';
const log: string[] = [];
let server: TestServer;

/** The setup links the server has logged so far. */
const loggedSetupLinks = (): string[] =>
  log.flatMap((line) => {
    const { setupLink } = JSON.parse(line) as { setupLink?: string };
    return setupLink ? [setupLink] : [];
  });

const signUp = (setup: string | undefined, name: string) =>
  newClient(server.url).auth.signUp({
    email: uniqueEmail('first'),
    password: 'correct horse battery',
    displayName: name,
    thumbnail: new Blob([new Uint8Array(makePng())], { type: 'image/png' }),
    fileName: 'avatar.png',
    ...(setup ? { setup } : {}),
  });

beforeAll(async () => {
  server = await startTestServer({
    configOverrides: {
      logLevel: 'warn',
      publicUrl: PUBLIC_URL,
      initialSignupPolicy: { mode: 'invitation', domains: [] },
    },
    logDestination: { write: (line) => void log.push(line) },
  });
});
afterAll(() => server?.stop());

describe('the first admin of an invitation-only install', () => {
  it('signs up once through the link logged at start; the link then dies, and a restart logs none', async () => {
    const [link, ...others] = loggedSetupLinks();
    expect(others).toEqual([]);
    const url = new URL(link!);
    expect(`${url.origin}${url.pathname}`).toBe(`${PUBLIC_URL}/signup`);
    const token = url.searchParams.get('setup')!;

    // Without it, or with a made-up one, the policy holds.
    expect((await errorOf(() => signUp(undefined, 'Gatecrasher'))).message).toBe(
      messages.signupInvitationOnly,
    );
    const forged = await errorOf(() => signUp(`${token}x`, 'Forger'));
    expect([forged.status, forged.message]).toEqual([410, messages.setupLinkInvalid]);

    const first = await signUp(token, 'First Admin');
    expect(first.role).toBe('admin');

    const again = await errorOf(() => signUp(token, 'Second Comer'));
    expect([again.status, again.message]).toEqual([410, messages.setupLinkInvalid]);

    await server.restart();
    expect(loggedSetupLinks()).toEqual([link]);
  });
});
