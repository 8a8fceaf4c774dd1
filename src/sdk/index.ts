import { LIVE_PATH, type LiveDoc, type LiveTarget } from '../common';
import { AuthClient } from './auth';
import { ProjectsClient } from './projects';
import { LiveClient, type LiveObserver, type SocketFactory, type SocketLike } from './live';
import { Transport } from './transport';
import { createStorage, type Storage, type TokenProvider } from './storage';

export { DojoError } from './errors';
export type { AuthListener, SignUpInput } from './auth';
export type { LiveObserver, SocketFactory, SocketLike } from './live';
export { applyChanges } from './live';

/** A WebSocket constructor: the browser's, or `ws` in Node (which also takes headers). */
export type WebSocketConstructor = new (
  url: string,
  protocols?: string | string[],
  options?: { headers?: Record<string, string> },
) => SocketLike;

export interface DojoClientOptions {
  /** Server origin; omit in the browser to use the page's origin. */
  baseUrl?: string;
  /** Defaults to the global WebSocket (browsers). Pass `ws` in Node. */
  WebSocket?: WebSocketConstructor;
  /** Storage bucket for `ref(client.storage, path)`; defaults to the server's default, `dojo`. */
  storageBucket?: string;
  /** App Check token provider; its token goes in `X-Firebase-AppCheck` on storage requests. */
  getAppCheckToken?: TokenProvider;
}

export interface DojoClient {
  auth: AuthClient;
  projects: ProjectsClient;
  /** Live subscription to a query or a document; returns the unsubscribe function. */
  subscribe<T extends LiveDoc>(target: LiveTarget, observer: LiveObserver<T>): () => void;
  live: LiveClient;
  transport: Transport;
  /** The storage service: use it with `ref`, `uploadBytesResumable`, … from `src/sdk/storage`. */
  storage: Storage;
  /** Closes the live connection for good (tests, scripts). */
  close(): void;
}

export function createDojoClient(options: DojoClientOptions = {}): DojoClient {
  const baseUrl = options.baseUrl ?? '';
  const transport = new Transport({ baseUrl });
  const auth = new AuthClient(transport);
  transport.onUnauthenticated = () => auth.handleSessionEnded();

  const origin = baseUrl || (typeof location === 'undefined' ? '' : location.origin);
  const liveUrl = `${origin.replace(/^http/, 'ws')}${LIVE_PATH}`;
  const SocketConstructor =
    options.WebSocket ?? (globalThis as unknown as { WebSocket?: WebSocketConstructor }).WebSocket;
  const createSocket: SocketFactory = (url) => {
    if (!SocketConstructor) throw new Error('No WebSocket implementation: pass one in DojoClientOptions.');
    const cookie = transport.cookieHeader();
    return cookie
      ? new SocketConstructor(url, undefined, { headers: { cookie } })
      : new SocketConstructor(url);
  };
  const live = new LiveClient(liveUrl, createSocket, () => auth.handleSessionEnded());
  auth.onAuthStateChanged((user) => live.setEnabled(user !== null));

  return {
    auth,
    projects: new ProjectsClient(transport),
    live,
    transport,
    storage: createStorage({
      baseUrl: origin,
      bucket: options.storageBucket ?? 'dojo',
      // Signed out means no Authorization header; the server then answers storage/unauthenticated.
      getToken: () => (auth.currentUser ? auth.getIdToken() : null),
      getAppCheckToken: options.getAppCheckToken,
    }),
    subscribe: (target, observer) => live.subscribe(target, observer),
    close: () => live.setEnabled(false),
  };
}
