import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveServerMessage, UserProfile } from '../../common';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { LiveRecorder, newClient, signUpClient, type SignedInClient } from '../../../test/support/clients';
import { WAIT_MS } from '../../../test/support/poll';

const GRACE_MS = 2000;
let server: TestServer;
let observer: SignedInClient;
let users: LiveRecorder<UserProfile>;

beforeAll(async () => {
  server = await startTestServer({ configOverrides: { presenceGraceMs: GRACE_MS } });
  observer = await signUpClient(server.url, 'observer');
  users = new LiveRecorder<UserProfile>(observer.client, { kind: 'query', collection: 'users' });
  await users.until(() => true);
});
afterAll(async () => {
  observer.client.close();
  await server.stop();
});

const onlineOf = (uid: string) => (docs: UserProfile[]) => docs.find((user) => user.id === uid)?.online;

/**
 * Waits for a presence sweep later than now, instead of for a time: a marker member signs up and closes
 * their only tab, and only a sweep after that marks them offline. That sweep has also marked offline
 * everyone whose last sign of life is older, and the users panel is read again after it.
 */
let markers = 0;
async function sweptAfterNow(): Promise<void> {
  markers += 1;
  // Display names are unique.
  const marker = await signUpClient(server.url, `marker ${markers}`);
  marker.client.close();
  await users.until(
    (docs) => onlineOf(marker.user.uid)(docs) === false,
    WAIT_MS,
    'a marker member offline after closing their tab',
  );
}

/** A second tab of the same session: another socket with the same cookie. */
function openTab(client: SignedInClient): Promise<{ socket: WebSocket; messages: LiveServerMessage[] }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/live`, {
      headers: { cookie: client.client.transport.cookieHeader() ?? '' },
    });
    const messages: LiveServerMessage[] = [];
    socket.on('message', (data) => messages.push(JSON.parse(String(data)) as LiveServerMessage));
    socket.on('open', () => resolve({ socket, messages }));
    socket.on('error', reject);
  });
}

describe('presence', () => {
  it('is online at signup and at login, offline at logout (spec), live in the users panel', async () => {
    const peach = await signUpClient(server.url, 'peach');
    await users.until(
      (docs) => onlineOf(peach.user.uid)(docs) === true,
      WAIT_MS,
      'peach online after signup',
    );
    await peach.client.auth.logOut();
    await users.until(
      (docs) => onlineOf(peach.user.uid)(docs) === false,
      WAIT_MS,
      'peach offline after logout',
    );
    const again = newClient(server.url);
    await again.auth.logIn({ email: peach.email, password: peach.password });
    await users.until((docs) => onlineOf(peach.user.uid)(docs) === true, WAIT_MS, 'peach online after login');
    again.close();
  });

  it('stays online while a tab is connected and goes offline after the last one closes without logout', async () => {
    const yoshi = await signUpClient(server.url, 'yoshi');
    const tab = await openTab(yoshi);
    // Past a sweep that drops a tab closed after hers opened, the connected user is still online.
    await sweptAfterNow();
    expect(onlineOf(yoshi.user.uid)(users.docs ?? [])).toBe(true);
    tab.socket.close();
    yoshi.client.close();
    await users.until(
      (docs) => onlineOf(yoshi.user.uid)(docs) === false,
      WAIT_MS,
      'yoshi offline after closing the tab',
    );
  });

  it('logging out in one tab signs out every tab of that session', async () => {
    const toad = await signUpClient(server.url, 'toad');
    const [first, second] = await Promise.all([openTab(toad), openTab(toad)]);
    const closed = (socket: WebSocket) =>
      new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    const closings = [closed(first.socket), closed(second.socket)];
    await toad.client.auth.logOut();
    expect(await Promise.all(closings)).toEqual([4001, 4001]);
    expect(first.messages.some((message) => message.type === 'signed-out')).toBe(true);
    expect(second.messages.some((message) => message.type === 'signed-out')).toBe(true);
  });

  it('keeps a user online after logging out of one browser while another is still connected', async () => {
    const daisy = await signUpClient(server.url, 'daisy');
    const otherBrowser = newClient(server.url);
    await otherBrowser.auth.logIn({ email: daisy.email, password: daisy.password });
    const otherTab = await openTab({ ...daisy, client: otherBrowser });
    await daisy.client.auth.logOut();
    await sweptAfterNow();
    expect(onlineOf(daisy.user.uid)(users.docs ?? [])).toBe(true);
    otherTab.socket.close();
    otherBrowser.close();
    await users.until((docs) => onlineOf(daisy.user.uid)(docs) === false, WAIT_MS, 'daisy offline');
  });
});
