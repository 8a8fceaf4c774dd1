import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMENT_MAX_LENGTH, mentionToken, mentionedUserIds, type UserProfile } from '../../common';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { createProjectAs, errorOf, type SignedInClient, signUpClient } from '../../../test/support/clients';

/**
 * @mentions (docs/decisions/027-mentions-and-who-is-looking.md): the comment box's suggestions come from
 * `GET /api/users?search=`, and a mention is stored as the user's id, so it survives a rename.
 */
let server: TestServer;
let admin: SignedInClient;
let jose: SignedInClient;
let gone: SignedInClient;
const tag = Math.random().toString(36).slice(2, 7);

async function searchUsers(client: SignedInClient | null, text: string): Promise<Response> {
  const cookie = client?.client.transport.cookieHeader();
  return fetch(`${server.url}/api/users?search=${encodeURIComponent(text)}&limit=8`, {
    headers: cookie ? { cookie } : {},
  });
}
const namesFound = async (response: Response) =>
  ((await response.json()) as { users: UserProfile[] }).users.map((user) => user.displayName);

beforeAll(async () => {
  server = await startTestServer();
  admin = await signUpClient(server.url, `Admin ${tag}`);
  jose = await signUpClient(server.url, `José Ádámsön ${tag}`);
  gone = await signUpClient(server.url, `Adam Gone ${tag}`);
  await admin.client.admin.deactivate(gone.user.uid);
});
afterAll(async () => {
  for (const { client } of [admin, jose, gone]) client.close();
  await server.stop();
});

describe('mention suggestions (the users search)', () => {
  it('ignores case and accents, and leaves deactivated members out', async () => {
    expect(await namesFound(await searchUsers(admin, `ADAMSON ${tag}`))).toEqual([`José Ádámsön ${tag}`]);
    expect(await namesFound(await searchUsers(admin, `jose`))).toContain(`José Ádámsön ${tag}`);
    const ad = await namesFound(await searchUsers(admin, `ad`));
    expect(ad).toEqual(expect.arrayContaining([`Admin ${tag}`, `José Ádámsön ${tag}`]));
    expect(ad).not.toContain(`Adam Gone ${tag}`);
  });

  it('needs a signed-in member', async () => {
    expect((await searchUsers(null, 'ad')).status).toBe(401);
  });
});

describe('a mention in a comment', () => {
  it('is stored as the user’s id and still names them after a rename, also through an edit', async () => {
    const project = await createProjectAs(admin, {
      name: `Mentions ${tag}`,
      details: 'who is named',
      assignedUserIds: [jose.user.uid],
    });
    const content = `Over to you ${mentionToken(jose.user.uid)}, thanks`;
    const comment = await admin.client.projects.addComment(project.id, { content });
    await jose.client.account.updateProfile({ displayName: `Joe ${tag}` });
    const [read] = (await admin.client.projects.listComments(project.id)).comments;
    expect(read?.content).toBe(content);
    expect(mentionedUserIds(read?.content ?? '')).toEqual([jose.user.uid]);

    const edited = `${content}, and again ${mentionToken(jose.user.uid)}`;
    await admin.client.projects.editComment(project.id, comment.id, { content: edited });
    const [after] = (await admin.client.projects.listComments(project.id)).comments;
    expect(mentionedUserIds(after?.content ?? '')).toEqual([jose.user.uid]);
    expect(after?.content).toBe(edited);
  });

  it('counts its token against the comment length limit, as stored', async () => {
    const project = await createProjectAs(admin, {
      name: `Long mentions ${tag}`,
      details: 'limits',
      assignedUserIds: [jose.user.uid],
    });
    const token = mentionToken(jose.user.uid);
    const fits = `${'x'.repeat(COMMENT_MAX_LENGTH - token.length)}${token}`;
    await admin.client.projects.addComment(project.id, { content: fits });
    const error = await errorOf(() => admin.client.projects.addComment(project.id, { content: `${fits}!` }));
    expect(error.status).toBe(400);
  });
});
