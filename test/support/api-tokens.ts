import { once } from 'node:events';
import { WebSocket } from 'ws';
import { dashboardQuery, type LiveServerMessage } from '../../src/common';
import { ApiTokensClient } from '../../src/sdk/api-tokens';
import type { SignedInClient } from './clients';
import { WAIT_MS } from './poll';

/** The member's own API tokens, through the SDK on their signed-in (cookie) client. */
export const tokensOf = (member: SignedInClient): ApiTokensClient =>
  new ApiTokensClient(member.client.transport);

/**
 * What the API token tests do as a script would: plain HTTP and a raw live socket with
 * `Authorization: Bearer dojo_pat_…`, and no cookie.
 */

export const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

/** A JSON request signed with the token; the status and the parsed body. */
export async function callWithToken(
  baseUrl: string,
  secret: string,
  method: string,
  path: string,
  json?: unknown,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...bearer(secret), ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

export interface TokenSocket {
  received: LiveServerMessage[];
  /** Resolves with the first message the condition accepts (rejects after WAIT_MS). */
  next(condition: (message: LiveServerMessage) => boolean, what: string): Promise<LiveServerMessage>;
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

/** Opens /live with the token and subscribes to the all-projects dashboard of `uid`. */
export async function openTokenSocket(baseUrl: string, secret: string, uid: string): Promise<TokenSocket> {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/live`, { headers: bearer(secret) });
  const received: LiveServerMessage[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data) => {
    received.push(JSON.parse(String(data)) as LiveServerMessage);
    for (const waiter of [...waiters]) waiter();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.on('close', (code, reason) => resolve({ code, reason: String(reason) }));
  });
  await once(socket, 'open');
  socket.send(JSON.stringify({ type: 'subscribe', id: 'dashboard', target: dashboardQuery('all', uid, 50) }));
  return {
    received,
    closed,
    close: () => socket.close(),
    next: (condition, what) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = received.find(condition);
          if (!found) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify(received).slice(0, 500)}`));
        }, WAIT_MS);
        waiters.add(check);
        check();
      }),
  };
}
