import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createProjectAs, newClient, type SignedInClient, signUpClient } from '../../../test/support/clients';
import { makePng, postJson, uniqueEmail } from '../../../test/support/fixtures';
import { rawExchange } from '../../../test/support/raw-http';
import { SmtpInbox } from '../../../test/support/smtp-inbox';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { objectUrl, putObject, startSession, uploadCommand } from '../storage/testing/storage-http';

/** Every line the server logs, at the most verbose level. */
const log: string[] = [];
let inbox: SmtpInbox;
let server: TestServer;
let admin: SignedInClient;
let member: SignedInClient;
let forgetful: SignedInClient;
let webRoot: string;

beforeAll(async () => {
  inbox = await SmtpInbox.start();
  // A web build, so that the app's pages and every unmatched path go through its routes, as in production.
  webRoot = await mkdtemp(path.join(os.tmpdir(), 'dojo-web-'));
  await writeFile(path.join(webRoot, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
  server = await startTestServer({
    configOverrides: {
      webRoot,
      logLevel: 'trace',
      smtpUrl: inbox.url,
      publicUrl: 'http://dojo.test',
      notificationEmailIntervalMs: 50,
    },
    logDestination: { write: (line) => void log.push(line) },
  });
  admin = await signUpClient(server.url, 'Admin');
  member = await signUpClient(server.url, 'Member');
  forgetful = await signUpClient(server.url, 'Forgetful');
});
afterAll(async () => {
  admin?.client.close();
  member?.client.close();
  forgetful?.client.close();
  await server?.stop();
  await inbox?.stop();
  if (webRoot) await rm(webRoot, { recursive: true, force: true });
});

/** A made-up token, as long and as random as a real one. */
const forgedToken = () => randomBytes(32).toString('base64url');

/** A GET that asks to upgrade to a WebSocket (the live socket's path is handled outside Fastify). */
function upgradeRequest(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${server.url}${path}`, {
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': randomBytes(16).toString('base64'),
      },
    });
    request.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('upgrade', (response, socket) => {
      socket.destroy();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
  });
}

it('logs no reset, invitation, download or unsubscribe token, used or forged, in any line', async () => {
  const anonymous = newClient(server.url);
  /** Every token this test sends; none may appear in the log, raw or percent-encoded. */
  const secrets: string[] = [];

  // A password reset by email: the link's page, its check, the reset, and the check again once used.
  await anonymous.access.requestPasswordReset(forgetful.email);
  const resetMail = await inbox.messageTo(forgetful.email);
  const resetLink = new URL(/https?:\/\/\S+\/reset-password\?token=[\w-]+/.exec(resetMail.text ?? '')![0]);
  const resetToken = resetLink.searchParams.get('token')!;
  secrets.push(resetToken);
  expect((await fetch(`${server.url}${resetLink.pathname}${resetLink.search}`)).status).toBe(200);
  expect((await fetch(`${server.url}/api/auth/password-reset/${resetToken}`)).status).toBe(200);
  await anonymous.access.resetPassword({ token: resetToken, password: 'a fresh new secret' });
  expect((await fetch(`${server.url}/api/auth/password-reset/${resetToken}`)).status).toBe(410);

  // An invitation: its page, its check, a signup with it.
  const { url: invitationUrl } = await admin.client.admin.createInvitation({ maxUses: 2 });
  const invitation = new URL(invitationUrl);
  const invitationToken = invitation.searchParams.get('invitation')!;
  secrets.push(invitationToken);
  expect((await fetch(`${server.url}${invitation.pathname}${invitation.search}`)).status).toBe(200);
  expect((await fetch(`${server.url}/api/invitations/${invitationToken}`)).status).toBe(200);
  const invited = newClient(server.url);
  await invited.auth.signUp({
    email: uniqueEmail('invited'),
    password: 'correct horse battery',
    displayName: 'Invited',
    thumbnail: new Blob([new Uint8Array(makePng())], { type: 'image/png' }),
    fileName: 'avatar.png',
    invitation: invitationToken,
  });
  invited.close();

  // A stored file read by its download token, without a session.
  const idToken = await member.client.auth.getIdToken();
  const name = `files/${member.user.uid}/report.txt`;
  const resource = await putObject(server.url, name, Buffer.from('quarterly numbers'), {
    headers: { authorization: `Firebase ${idToken}` },
    contentType: 'text/plain',
  });
  const downloadToken = String(resource.downloadTokens);
  secrets.push(downloadToken);
  expect((await fetch(`${objectUrl(server.url, name)}?alt=media&token=${downloadToken}`)).status).toBe(200);
  // A resumable upload: its session URL carries the upload id.
  const bytes = Buffer.from('appendix');
  const sessionUrl = new URL(
    await startSession(server.url, `files/${member.user.uid}/appendix.txt`, bytes.length, {
      headers: { authorization: `Firebase ${idToken}` },
    }),
  );
  secrets.push(sessionUrl.searchParams.get('upload_id')!);
  const finalized = await uploadCommand(
    `${server.url}${sessionUrl.pathname}${sessionUrl.search}`,
    { authorization: `Firebase ${idToken}` },
    'upload, finalize',
    0,
    bytes,
  );
  expect(finalized.status).toBe(200);

  // One-click unsubscribe from a notification email: the page (GET) and the click (POST).
  await member.client.notifications.updatePreferences({
    preferences: [{ kind: 'assigned', inApp: true, email: 'immediate' }],
  });
  await createProjectAs(admin, {
    name: 'Quarterly report',
    details: 'Numbers',
    category: 'development',
    assignedUserIds: [member.user.uid],
  });
  const assignedMail = await inbox.messageTo(member.email);
  const unsubscribe = new URL(
    /https?:\/\/\S+\/api\/notifications\/unsubscribe\?token=[^\s>]+/.exec(assignedMail.text ?? '')![0],
  );
  const unsubscribeToken = unsubscribe.searchParams.get('token')!;
  secrets.push(unsubscribeToken);
  const unsubscribePath = `${server.url}${unsubscribe.pathname}${unsubscribe.search}`;
  expect((await fetch(unsubscribePath)).status).toBe(200);
  expect(
    (
      await fetch(unsubscribePath, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      })
    ).status,
  ).toBe(200);

  // Forged tokens on every path that takes one, and on paths no route matches (404s and malformed URLs).
  const forged = Array.from({ length: 12 }, forgedToken);
  secrets.push(...forged);
  const [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11] = forged as [string, ...string[]];
  const statuses = [
    await fetch(`${server.url}/api/auth/password-reset/${f0}`),
    await postJson(server.url, '/api/auth/password-reset', { token: f1, password: 'a fresh new secret' }),
    await fetch(`${server.url}/api/invitations/${f2}`),
    await fetch(`${server.url}/api/invitations/${f3}/extra`),
    await fetch(`${server.url}/api/auth/password-reset/${f4}%zz`),
    await fetch(`${server.url}/api/invitations/${f5}${'x'.repeat(200)}`),
    await fetch(`${objectUrl(server.url, name)}?alt=media&token=${f6}`),
    await fetch(`${server.url}/api/notifications/unsubscribe?token=${f7}.${f7}`, { method: 'POST' }),
    await fetch(`${server.url}/signup?invitation=${f8}&${f9}`),
  ].map((response) => response.status);
  expect(statuses).toEqual([404, 404, 404, 404, 400, 404, 401, 400, 200]);
  // Upgrades of the live socket and of other paths, and a request Node's parser refuses.
  expect(await upgradeRequest(`/live?token=${f10}`)).toBe(401);
  expect(await upgradeRequest(`/api/invitations/${f10}`)).toBe(404);
  const refused = await rawExchange(
    server.url,
    `GET /api/invitations/${f11} HTTP/1.1\r\nHost: dojo.test\r\nBad Header: x\r\n\r\n`,
  );
  expect(refused.status).toBe(400);

  // Every request is over and logged once the server has stopped.
  await server.stop();
  const text = log.join('');
  for (const secret of secrets) {
    for (const form of new Set([secret, encodeURIComponent(secret)])) {
      expect(text.includes(form), `the log holds ${form}`).toBe(false);
    }
  }
  expect(text).not.toContain('rawPacket');
  // The log did record these requests, by their route's pattern.
  expect(text).toContain('"url":"/api/invitations/:token"');
  expect(text).toContain('"url":"/api/auth/password-reset/:token"');
  expect(text).toMatch(/"url":"\/v0\/b\/:bucket\/o\/[*/]+\?alt=media&token=\[redacted\]"/);
  expect(text).toContain('"url":"/signup?invitation=[redacted]"');
  expect(text).toContain('"url":"/api/invitations/*/*"');
});
