import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { messages } from '../../common';
import { newClient, signUpClient, type SignedInClient } from '../../../test/support/clients';
import { postJson } from '../../../test/support/fixtures';
import { requestWithForgedHost } from '../../../test/support/forged-host';
import { SmtpInbox } from '../../../test/support/smtp-inbox';
import { openServerDatabase } from '../../../test/support/test-database';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { useMailingTeam, useTestTeam } from '../../../test/support/test-team';

/**
 * No link the server emails or hands out is built from a request's headers
 * (docs/decisions/043-links-from-configuration.md). Every server here trusts the proxies at 127.0.0.1, so
 * a forged `X-Forwarded-Host` is believed by the request itself: only the link code ignores it.
 */
const PUBLIC_URL = 'https://dojo.example/team';
const FORGED_HOST = {
  host: 'evil.example',
  'x-forwarded-host': 'evil.example',
  'x-forwarded-proto': 'https',
};
const RESET_REQUEST = '/api/auth/password-reset/request';

/** The reset link in an email's text. */
function resetLinkIn(text: string | undefined): URL {
  const link = /\S+\/reset-password\?token=\S+/.exec(text ?? '')?.[0];
  expect(link, text).toBeDefined();
  return new URL(link ?? '');
}

/**
 * The link of a password reset an admin makes for `member`, and of a new invitation, both asked for with a
 * forged Host and X-Forwarded-Host.
 */
async function adminLinksWithForgedHost(
  server: TestServer,
  admin: SignedInClient,
  member: SignedInClient,
): Promise<{ reset: string; invitation: string }> {
  const cookie = admin.client.transport.cookieHeader() ?? '';
  const reset = await requestWithForgedHost(
    `${server.url}/api/admin/members/${encodeURIComponent(member.user.uid)}/password-reset`,
    { method: 'POST', headers: { ...FORGED_HOST, cookie } },
  );
  expect(reset.status, reset.body).toBe(201);
  const invitation = await requestWithForgedHost(`${server.url}/api/admin/invitations`, {
    method: 'POST',
    headers: { ...FORGED_HOST, cookie, 'content-type': 'application/json' },
    body: JSON.stringify({}),
  });
  expect(invitation.status, invitation.body).toBe(201);
  const urlOf = (answer: { body: string }) => (JSON.parse(answer.body) as { url: string }).url;
  return { reset: urlOf(reset), invitation: urlOf(invitation) };
}

describe('with email (SMTP_URL and PUBLIC_URL)', () => {
  const team = useMailingTeam({ admin: 'Admin' }, { publicUrl: PUBLIC_URL, trustProxy: ['127.0.0.1'] });

  it("emails a reset link on PUBLIC_URL to a 'Forgot password?' request with a forged Host and X-Forwarded-Host", async () => {
    const victim = await signUpClient(team.server.url, 'Victim');
    const answer = await requestWithForgedHost(`${team.server.url}${RESET_REQUEST}`, {
      method: 'POST',
      headers: { ...FORGED_HOST, 'content-type': 'application/json' },
      body: JSON.stringify({ email: victim.email }),
    });
    expect([answer.status, JSON.parse(answer.body)]).toEqual([202, { message: messages.resetEmailSent }]);

    const mail = await team.inbox.messageTo(victim.email);
    expect(mail.text).not.toContain('evil.example');
    const link = resetLinkIn(mail.text);
    expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC_URL}/reset-password`);
    // The link is the real one: its token sets the password.
    const token = link.searchParams.get('token') ?? '';
    await newClient(team.server.url).access.resetPassword({ token, password: 'only mine to choose' });
    const back = await newClient(team.server.url).auth.logIn({
      email: victim.email,
      password: 'only mine to choose',
    });
    expect(back.uid).toBe(victim.user.uid);
    victim.client.close();
  });

  it('answers before it looks the address up: the same answer for an account and for none, even when the work after it fails', async () => {
    const member = await signUpClient(team.server.url, 'Existing');
    member.client.close();
    // The token cannot be stored while the table is away: had the answer waited for that work, the
    // existing account's request would fail where the unknown address's succeeds.
    const database = await openServerDatabase(team.server);
    try {
      await database.db.schema.alterTable('password_resets').renameTo('password_resets_away').execute();
      const answers = [];
      for (const email of [member.email, 'nobody-here@example.test']) {
        const response = await postJson(team.server.url, RESET_REQUEST, { email });
        answers.push({
          status: response.status,
          type: response.headers.get('content-type'),
          body: await response.text(),
        });
      }
      expect(answers[0]).toEqual({
        status: 202,
        type: 'application/json; charset=utf-8',
        body: JSON.stringify({ message: messages.resetEmailSent }),
      });
      expect(answers[1]).toEqual(answers[0]);
    } finally {
      await database.db.schema.alterTable('password_resets_away').renameTo('password_resets').execute();
      await database.close();
    }
    // With the table back the same request mails the link: the work runs after the answer.
    expect((await postJson(team.server.url, RESET_REQUEST, { email: member.email })).status).toBe(202);
    const link = resetLinkIn((await team.inbox.messageTo(member.email)).text);
    expect(link.origin).toBe(new URL(PUBLIC_URL).origin);
  });

  it('puts an invitation and an admin-made reset link on PUBLIC_URL, whatever the Host', async () => {
    const member = await signUpClient(team.server.url, 'Member');
    const links = await adminLinksWithForgedHost(team.server, team.admin, member);
    expect(links.reset).toMatch(new RegExp(`^${PUBLIC_URL}/reset-password\\?token=[\\w-]+$`));
    expect(links.invitation).toMatch(new RegExp(`^${PUBLIC_URL}/signup\\?invitation=[\\w-]+$`));
    member.client.close();
  });
});

describe('without email or PUBLIC_URL', () => {
  const team = useTestTeam({ admin: 'Admin' }, { configOverrides: { trustProxy: ['127.0.0.1'] } });

  it('hands an admin links as paths, which the client puts on the origin it is on', async () => {
    const member = await signUpClient(team.server.url, 'Member');
    const links = await adminLinksWithForgedHost(team.server, team.admin, member);
    expect(links.reset).toMatch(/^\/reset-password\?token=[\w-]+$/);
    expect(links.invitation).toMatch(/^\/signup\?invitation=[\w-]+$/);

    // The SDK (the web app's client) resolves them against the server's origin as it reaches it.
    const link = new URL((await team.admin.client.admin.createPasswordReset(member.user.uid)).url);
    expect(`${link.origin}${link.pathname}`).toBe(`${team.server.url}/reset-password`);
    const invited = new URL((await team.admin.client.admin.createInvitation({})).url);
    expect(`${invited.origin}${invited.pathname}`).toBe(`${team.server.url}/signup`);
    member.client.close();
  });
});

describe('SMTP_URL without PUBLIC_URL', () => {
  it('is refused by the app before it starts', async () => {
    const inbox = await SmtpInbox.start();
    try {
      await expect(startTestServer({ configOverrides: { smtpUrl: inbox.url } })).rejects.toThrow(
        /SMTP_URL is set but PUBLIC_URL is not/,
      );
    } finally {
      await inbox.stop();
    }
  });

  it('stops `npm start` with a message naming both, and exit code 1', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dojo-smtp-'));
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
        env: {
          ...process.env,
          SMTP_URL: 'smtp://127.0.0.1:1',
          // Blank counts as unset, whatever the surrounding environment holds.
          PUBLIC_URL: '',
          DATABASE_URL: '',
          DATA_DIR: dataDir,
          PORT: '0',
          HOST: '127.0.0.1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      const collect = (chunk: Buffer) => {
        output += chunk.toString();
        // A server that started anyway is stopped, and the test fails on its exit code.
        if (output.includes('running at')) child.kill();
      };
      child.stdout.on('data', collect);
      child.stderr.on('data', collect);
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code, output).toBe(1);
      expect(output).toMatch(/Invalid configuration/);
      expect(output).toMatch(/SMTP_URL is set but PUBLIC_URL is not/);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
