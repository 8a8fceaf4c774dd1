import { describe, expect, it } from 'vitest';
import { LIVE_CLOSE_CODES } from '../../common';
import {
  API_TOKEN_NAME_MAX_LENGTH,
  API_TOKENS_PER_MEMBER,
  apiTokenMessages,
  type ApiToken,
  type CreateApiTokenInput,
  type CreatedApiToken,
} from '../../common/api-tokens';
import { bearer, callWithToken, openTokenSocket, tokensOf } from '../../../test/support/api-tokens';
import { errorOf, signUpClient, tomorrow, type SignedInClient } from '../../../test/support/clients';
import { pollUntil, WAIT_MS } from '../../../test/support/poll';
import { openServerDatabase } from '../../../test/support/test-database';
import { useTestTeam } from '../../../test/support/test-team';
import { hashSessionToken } from '../auth/sessions-repository';

/**
 * Personal API tokens (docs/decisions/063-personal-api-tokens.md) on the real server, on SQLite and on
 * PostgreSQL: made once in settings, used as `Authorization: Bearer` by a script, refused what their scope
 * or the account's security does not allow, and stopped by revocation, expiry, deactivation and a new
 * password. The two-instance revocation is api-tokens.pg.int.test.ts.
 */
const team = useTestTeam({ ada: 'Ada', bob: 'Bob' });

/** How far ahead the expiry test's token ends: long enough for its first use on a busy machine. */
const EXPIRES_IN_MS = 3000;

const cookieOf = (member: SignedInClient) => member.client.transport.cookieHeader() ?? '';

let members = 0;
/** A member of their own for each test (display names are unique, so each gets a number). */
async function newMember(name: string): Promise<SignedInClient> {
  members += 1;
  return signUpClient(team.server.url, `${name} ${members}`);
}

function makeToken(
  member: SignedInClient,
  input: Partial<CreateApiTokenInput> = {},
): Promise<CreatedApiToken> {
  return tokensOf(member).create({ name: 'A script', scope: 'write', expiresInDays: 30, ...input });
}

const projectInput = (member: SignedInClient) => ({
  name: 'Made by a script',
  details: 'Through an API token.',
  dueDate: tomorrow(),
  category: 'design' as const,
  assignedUserIds: [member.user.uid],
});

const errorBody = (message: string) => ({
  error: { code: 'forbidden', message, requestId: expect.any(String) },
});

describe('personal API tokens', () => {
  it('shows the secret once, lists the token without it and stores only its sha256', async () => {
    const carol = await newMember('Carol');
    const before = Date.now();
    const { token, secret } = await makeToken(carol, { name: '  Nightly export  ', scope: 'read' });
    expect(secret).toMatch(/^dojo_pat_[\w-]{43}$/);
    expect(token).toEqual({
      id: expect.any(String),
      name: 'Nightly export',
      scope: 'read',
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
      lastUsedAt: null,
    });
    const lifetimeDays = (Date.parse(token.expiresAt) - Date.parse(token.createdAt)) / 86_400_000;
    expect(lifetimeDays).toBe(30);
    expect(Date.parse(token.createdAt)).toBeGreaterThanOrEqual(before - 1000);

    // No cache along the way may keep a create's answer, which holds a secret.
    const raw = await fetch(`${team.server.url}/api/account/api-tokens`, {
      method: 'POST',
      headers: { cookie: cookieOf(carol), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Uncached', scope: 'read', expiresInDays: 7 }),
    });
    expect(raw.status).toBe(201);
    expect(raw.headers.get('cache-control')).toBe('no-store');
    const uncached = ((await raw.json()) as CreatedApiToken).token;
    await tokensOf(carol).revoke(uncached.id);

    const listed = await tokensOf(carol).list();
    expect(listed).toEqual([token]);
    expect(JSON.stringify(listed)).not.toContain(secret.slice('dojo_pat_'.length));

    const database = await openServerDatabase(team.server);
    try {
      const rows = await database.db
        .selectFrom('sessions')
        .selectAll()
        .where('user_id', '=', carol.user.uid)
        .where('kind', '=', 'api-token')
        .execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]?.token_hash).toBe(hashSessionToken(secret));
      expect(JSON.stringify(rows)).not.toContain(secret.slice('dojo_pat_'.length));
    } finally {
      await database.close();
    }
  });

  it('signs a script in on the JSON API with its owner’s permissions, and records when it was last used', async () => {
    const carol = await newMember('Carol');
    const { token, secret } = await makeToken(carol);
    const session = await callWithToken(team.server.url, secret, 'GET', '/api/auth/session');
    expect(session).toEqual({ status: 200, body: { user: carol.user } });

    const created = await callWithToken(
      team.server.url,
      secret,
      'POST',
      '/api/projects',
      projectInput(carol),
    );
    expect(created.status).toBe(201);
    const projectId = (created.body as { project: { id: string } }).project.id;
    expect(await carol.client.projects.get(projectId)).toMatchObject({ createdBy: { id: carol.user.uid } });
    // Carol's permissions, no more: Bob's comment is not hers to delete.
    const comment = await team.bob.client.projects.addComment(projectId, { content: 'From Bob' });
    const refused = await callWithToken(
      team.server.url,
      secret,
      'DELETE',
      `/api/projects/${projectId}/comments/${comment.id}`,
    );
    expect(refused.status).toBe(403);

    await pollUntil(
      async () =>
        (await tokensOf(carol).list()).find((listed) => listed.id === token.id)?.lastUsedAt !== null,
      WAIT_MS,
      () => 'the token’s last use was never recorded',
    );
  });

  it('opens the live socket and follows a subscription', async () => {
    const carol = await newMember('Carol');
    const { secret } = await makeToken(carol, { scope: 'read' });
    const socket = await openTokenSocket(team.server.url, secret, carol.user.uid);
    try {
      await socket.next((message) => message.type === 'welcome', 'the welcome');
      await socket.next((message) => message.type === 'snapshot', 'the first snapshot');
      const project = await carol.client.projects.create(projectInput(carol));
      await socket.next(
        (message) =>
          message.type === 'changes' && message.changes.some((change) => change.doc.id === project.id),
        'the new project, live',
      );
    } finally {
      socket.close();
    }
  });

  it("refuses a 'read' token every write with a clear 403, and changes nothing", async () => {
    const carol = await newMember('Carol');
    const { secret } = await makeToken(carol, { scope: 'read' });
    expect((await callWithToken(team.server.url, secret, 'GET', '/api/projects')).status).toBe(200);
    const project = await carol.client.projects.create(projectInput(carol));

    const writes: [string, string, unknown][] = [
      ['POST', '/api/projects', projectInput(carol)],
      ['POST', `/api/projects/${project.id}/comments`, { content: 'no' }],
      ['DELETE', `/api/projects/${project.id}`, undefined],
      ['POST', '/api/notifications/read-all', undefined],
      ['PUT', '/api/notifications/preferences', { preferences: [] }],
    ];
    for (const [method, path, json] of writes) {
      expect(await callWithToken(team.server.url, secret, method, path, json), `${method} ${path}`).toEqual({
        status: 403,
        body: errorBody(apiTokenMessages.readOnly),
      });
    }
    // The storage protocol and a multipart profile change pass the same seam.
    const upload = await fetch(
      `${team.server.url}/v0/b/dojo/o?name=${encodeURIComponent(`files/${carol.user.uid}/a.txt`)}`,
      { method: 'POST', headers: { ...bearer(secret), 'content-type': 'text/plain' }, body: 'no' },
    );
    expect(upload.status).toBe(403);
    const profile = new FormData();
    profile.set('displayName', 'Renamed by a read token');
    const rename = await fetch(`${team.server.url}/api/account/profile`, {
      method: 'PATCH',
      headers: bearer(secret),
      body: profile,
    });
    expect(rename.status).toBe(403);

    expect((await carol.client.projects.get(project.id)).name).toBe(project.name);
    expect(await carol.client.projects.listComments(project.id)).toMatchObject({ comments: [] });
    const session = await callWithToken(team.server.url, secret, 'GET', '/api/auth/session');
    expect(session.body).toMatchObject({ user: { displayName: carol.user.displayName } });
  });

  it('lets a write token change its owner’s profile', async () => {
    const carol = await newMember('Carol');
    const { secret } = await makeToken(carol);
    const profile = new FormData();
    profile.set('displayName', 'Carol by script');
    const response = await fetch(`${team.server.url}/api/account/profile`, {
      method: 'PATCH',
      headers: bearer(secret),
      body: profile,
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { user: { displayName: string } }).user.displayName).toBe(
      'Carol by script',
    );
  });

  it('never mints id tokens nor manages the account: tokens, password, sessions, deletion', async () => {
    const carol = await newMember('Carol');
    const { token, secret } = await makeToken(carol);
    const refusals: [string, string, unknown][] = [
      ['POST', '/api/auth/token', undefined],
      ['GET', '/api/account/api-tokens', undefined],
      ['POST', '/api/account/api-tokens', { name: 'Another', scope: 'write', expiresInDays: 7 }],
      ['DELETE', `/api/account/api-tokens/${token.id}`, undefined],
      ['POST', '/api/account/password', { currentPassword: carol.password, newPassword: 'a whole new one' }],
      ['GET', '/api/account/sessions', undefined],
      ['POST', '/api/account/sessions/sign-out-others', undefined],
      ['POST', '/api/account/delete', { password: carol.password }],
    ];
    for (const [method, path, json] of refusals) {
      expect(await callWithToken(team.server.url, secret, method, path, json), `${method} ${path}`).toEqual({
        status: 403,
        body: errorBody(apiTokenMessages.browserSessionOnly),
      });
    }
    expect((await tokensOf(carol).list()).map((listed) => listed.id)).toEqual([token.id]);
    expect(await carol.client.account.listSessions()).toHaveLength(1);
    // Pasted into the cookie, the secret signs nobody in.
    const asCookie = await fetch(`${team.server.url}/api/auth/session`, {
      headers: { cookie: `dojo_session=${secret}` },
    });
    expect(await asCookie.json()).toEqual({ user: null });
  });

  it('stops a revoked token at once: 401 on the API, its live socket signed out', async () => {
    const carol = await newMember('Carol');
    const { token, secret } = await makeToken(carol);
    const kept = await makeToken(carol, { name: 'Kept' });
    const socket = await openTokenSocket(team.server.url, secret, carol.user.uid);
    await socket.next((message) => message.type === 'snapshot', 'the first snapshot');
    expect((await callWithToken(team.server.url, secret, 'GET', '/api/projects')).status).toBe(200);

    await tokensOf(carol).revoke(token.id);
    expect((await callWithToken(team.server.url, secret, 'GET', '/api/projects')).status).toBe(401);
    expect(await socket.closed).toEqual({ code: LIVE_CLOSE_CODES.signedOut, reason: expect.any(String) });
    expect(socket.received.at(-1)).toEqual({ type: 'signed-out' });
    expect((await tokensOf(carol).list()).map((listed) => listed.id)).toEqual([kept.token.id]);
    expect((await callWithToken(team.server.url, kept.secret, 'GET', '/api/projects')).status).toBe(200);

    const again = await errorOf(() => tokensOf(carol).revoke(token.id));
    expect({ code: again.code, message: again.message }).toEqual({
      code: 'not-found',
      message: apiTokenMessages.notFound,
    });
    // Another member's token is not found among one's own.
    const theirs = await errorOf(() => tokensOf(team.bob).revoke(kept.token.id));
    expect(theirs.code).toBe('not-found');
    expect((await callWithToken(team.server.url, kept.secret, 'GET', '/api/projects')).status).toBe(200);
  });

  it('stops a token at its expiry, even one the server has just used, and leaves it off the list', async () => {
    const carol = await newMember('Carol');
    const { secret } = await makeToken(carol);
    const database = await openServerDatabase(team.server);
    try {
      // Expiring in a few seconds: used (and so cached) first, then past its end.
      await database.db
        .updateTable('sessions')
        .set({ expires_at: new Date(Date.now() + EXPIRES_IN_MS).toISOString() })
        .where('token_hash', '=', hashSessionToken(secret))
        .execute();
    } finally {
      await database.close();
    }
    expect((await callWithToken(team.server.url, secret, 'GET', '/api/projects')).status).toBe(200);
    await pollUntil(
      async () => (await callWithToken(team.server.url, secret, 'GET', '/api/projects')).status === 401,
      WAIT_MS,
      () => 'the expired token still signs in',
    );
    expect(await tokensOf(carol).list()).toEqual([]);
  });

  it('stops the tokens of a deactivated owner, and of an owner who changed their password', async () => {
    const carol = await newMember('Carol');
    const dave = await newMember('Dave');
    const carols = await makeToken(carol);
    const daves = await makeToken(dave);
    expect((await callWithToken(team.server.url, carols.secret, 'GET', '/api/projects')).status).toBe(200);
    expect((await callWithToken(team.server.url, daves.secret, 'GET', '/api/projects')).status).toBe(200);

    await team.ada.client.admin.deactivate(carol.user.uid);
    expect((await callWithToken(team.server.url, carols.secret, 'GET', '/api/projects')).status).toBe(401);
    // Reactivated, the account starts afresh: its old tokens stay ended.
    await team.ada.client.admin.reactivate(carol.user.uid);
    expect((await callWithToken(team.server.url, carols.secret, 'GET', '/api/projects')).status).toBe(401);

    await dave.client.account.changePassword({
      currentPassword: dave.password,
      newPassword: 'a whole new one',
    });
    expect((await callWithToken(team.server.url, daves.secret, 'GET', '/api/projects')).status).toBe(401);
    expect(await tokensOf(dave).list()).toEqual([]);
  });

  it('keeps tokens out of the sessions list and out of “sign out everywhere else”', async () => {
    const carol = await newMember('Carol');
    const { token, secret } = await makeToken(carol);
    expect((await callWithToken(team.server.url, secret, 'GET', '/api/projects')).status).toBe(200);
    const sessions = await carol.client.account.listSessions();
    expect(sessions).toEqual([expect.objectContaining({ current: true })]);
    await carol.client.account.signOutOtherSessions();
    expect((await callWithToken(team.server.url, secret, 'GET', '/api/projects')).status).toBe(200);
    expect((await tokensOf(carol).list()).map((listed) => listed.id)).toEqual([token.id]);
  });

  it('refuses bad input with 400 naming each field, and creates nothing', async () => {
    const carol = await newMember('Carol');
    const post = (json: unknown) =>
      fetch(`${team.server.url}/api/account/api-tokens`, {
        method: 'POST',
        headers: { cookie: cookieOf(carol), 'content-type': 'application/json' },
        body: JSON.stringify(json),
      });
    const cases: [unknown, Record<string, string>][] = [
      [{ name: '   ', scope: 'read', expiresInDays: 7 }, { name: apiTokenMessages.nameRequired }],
      [
        { name: 'x'.repeat(API_TOKEN_NAME_MAX_LENGTH + 1), scope: 'read', expiresInDays: 7 },
        { name: apiTokenMessages.nameTooLong },
      ],
      [{ name: 'Admin', scope: 'admin', expiresInDays: 7 }, { scope: apiTokenMessages.scopeInvalid }],
      [
        { name: 'Forever', scope: 'read', expiresInDays: 36_500 },
        { expiresInDays: apiTokenMessages.expiryInvalid },
      ],
      [
        { name: 'Text', scope: 'read', expiresInDays: '30' },
        { expiresInDays: apiTokenMessages.expiryInvalid },
      ],
    ];
    for (const [json, fields] of cases) {
      const response = await post(json);
      expect(response.status, JSON.stringify(json)).toBe(400);
      const body = (await response.json()) as { error: { code: string; fields: Record<string, string> } };
      expect(body.error.code).toBe('invalid-argument');
      expect(body.error.fields).toEqual(fields);
    }
    expect(await tokensOf(carol).list()).toEqual([]);

    const anonymous = await fetch(`${team.server.url}/api/account/api-tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Nobody', scope: 'read', expiresInDays: 7 }),
    });
    expect(anonymous.status).toBe(401);
    expect((await callWithToken(team.server.url, 'dojo_pat_forged', 'GET', '/api/projects')).status).toBe(
      401,
    );
    expect((await fetch(`${team.server.url}/api/account/api-tokens`)).status).toBe(401);
  });

  it(`holds at most ${API_TOKENS_PER_MEMBER} live tokens per member`, async () => {
    const carol = await newMember('Carol');
    const made: ApiToken[] = [];
    for (let index = 0; index < API_TOKENS_PER_MEMBER; index += 1) {
      made.push((await makeToken(carol, { name: `Token ${index}` })).token);
    }
    const refused = await errorOf(() => makeToken(carol, { name: 'One too many' }));
    expect({ code: refused.code, message: refused.message }).toEqual({
      code: 'conflict',
      message: apiTokenMessages.tooMany,
    });
    await tokensOf(carol).revoke(made[0]!.id);
    await makeToken(carol, { name: 'In its place' });
    expect(await tokensOf(carol).list()).toHaveLength(API_TOKENS_PER_MEMBER);
  });
});
