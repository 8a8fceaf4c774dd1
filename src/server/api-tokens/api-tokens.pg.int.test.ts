import { describe, expect, it } from 'vitest';
import { LIVE_CLOSE_CODES } from '../../common';
import { callWithToken, openTokenSocket, tokensOf } from '../../../test/support/api-tokens';
import { useTwoInstanceTeam } from '../../../test/support/test-team';

/**
 * A personal API token on two instances of one PostgreSQL database: revoked or ended through one, it stops
 * at once on the other, which had just used (and so cached) it. The proof is the other instance's own
 * live socket being signed out, which only the change bus can do, and its very next request answering 401
 * (the cache forgets the token before the hub signs its sockets out), with no wait on time.
 */
describe('API tokens on two instances', () => {
  const team = useTwoInstanceTeam({ ada: ['Ada', 'first'], bob: ['Bob', 'first'], cleo: ['Cleo', 'first'] });

  it('stops a token revoked on one instance at once on the other', async () => {
    const { first, second } = team.instances;
    const { token, secret } = await tokensOf(team.bob).create({
      name: 'Across instances',
      scope: 'read',
      expiresInDays: 7,
    });
    const socket = await openTokenSocket(second.url, secret, team.bob.user.uid);
    try {
      await socket.next((message) => message.type === 'snapshot', 'the snapshot on two');
      expect((await callWithToken(second.url, secret, 'GET', '/api/projects')).status).toBe(200);
      expect((await callWithToken(first.url, secret, 'GET', '/api/projects')).status).toBe(200);

      await tokensOf(team.bob).revoke(token.id);
      expect((await callWithToken(first.url, secret, 'GET', '/api/projects')).status).toBe(401);
      expect(await socket.closed).toEqual({ code: LIVE_CLOSE_CODES.signedOut, reason: expect.any(String) });
      expect((await callWithToken(second.url, secret, 'GET', '/api/projects')).status).toBe(401);
    } finally {
      socket.close();
    }
  });

  it("stops a deactivated owner's token at once on the other instance", async () => {
    const { second } = team.instances;
    const { secret } = await tokensOf(team.cleo).create({
      name: 'Until she leaves',
      scope: 'write',
      expiresInDays: 30,
    });
    const socket = await openTokenSocket(second.url, secret, team.cleo.user.uid);
    try {
      await socket.next((message) => message.type === 'snapshot', 'the snapshot on two');
      expect((await callWithToken(second.url, secret, 'GET', '/api/projects')).status).toBe(200);

      // Ada, the team's admin, deactivates Cleo through the first instance.
      await team.ada.client.admin.deactivate(team.cleo.user.uid);
      expect(await socket.closed).toEqual({ code: LIVE_CLOSE_CODES.signedOut, reason: expect.any(String) });
      expect((await callWithToken(second.url, secret, 'GET', '/api/projects')).status).toBe(401);
    } finally {
      socket.close();
    }
  });
});
