import { LIVE_PATH, type LiveDoc, type LiveTarget } from '../common';
import { AuthClient } from './auth';
import { NotificationsClient } from './notifications';
import { ProjectsClient } from './projects';
import { AccessClient, AccountClient, AdminClient } from './team';
import { LiveClient, type LiveObserver, type SocketFactory, type SocketLike } from './live';
import { Transport } from './transport';
import { createStorage, type Storage, type TokenProvider } from './storage';

export { DojoError } from './errors';
export type { AuthListener, SignUpInput } from './auth';
export type { LiveObserver, LiveStatus, SocketFactory, SocketLike } from './live';
export { applyChanges } from './live';

/** A WebSocket constructor: the browser's, or `ws` in Node (which also takes headers). */
export type WebSocketConstructor = new (
  url: string,
  protocols?: string | string[],
  options?: { headers?: Record<string, string> },
) => SocketLike;

export interface DojoCoreClientOptions {
  /** Server origin; omit in the browser to use the page's origin. */
  baseUrl?: string;
  /** Defaults to the global WebSocket (browsers). Pass `ws` in Node. */
  WebSocket?: WebSocketConstructor;
}

export interface DojoClientOptions extends DojoCoreClientOptions {
  /** Storage bucket for `ref(client.storage, path)`; defaults to the server's default, `dojo`. */
  storageBucket?: string;
  /** App Check token provider; its token goes in `X-Firebase-AppCheck` on storage requests. */
  getAppCheckToken?: TokenProvider;
}

/** Auth, projects and live data: everything but the storage service. */
export interface DojoCoreClient {
  auth: AuthClient;
  projects: ProjectsClient;
  /** The signed-in member's own notifications and their choice per kind. */
  notifications: NotificationsClient;
  /** The signed-in user's own account settings. */
  account: AccountClient;
  /** Sign-up options, invitation links and password resets, before signing in. */
  access: AccessClient;
  /** Members, roles, sign-up policy and invitations: admins only. */
  admin: AdminClient;
  /** Live subscription to a query or a document; returns the unsubscribe function. */
  subscribe<T extends LiveDoc>(target: LiveTarget, observer: LiveObserver<T>): () => void;
  live: LiveClient;
  transport: Transport;
  /** Closes the live connection for good (tests, scripts). */
  close(): void;
}

export interface DojoClient extends DojoCoreClient {
  /** The storage service: use it with `ref`, `uploadBytesResumable`, … from `src/sdk/storage`. */
  storage: Storage;
}

/** The server's origin: `baseUrl`, or in a browser without one the page's origin. */
function originOf(baseUrl: string): string {
  return baseUrl || (typeof location === 'undefined' ? '' : location.origin);
}

/**
 * The client without the storage service, for apps that do not use it (the web app): the storage code
 * then stays out of their bundle (the first-visit JS budget, docs/benchmarks.md).
 */
export function createDojoCoreClient(options: DojoCoreClientOptions = {}): DojoCoreClient {
  const baseUrl = options.baseUrl ?? '';
  const transport = new Transport({ baseUrl });
  const auth = new AuthClient(transport);
  transport.onUnauthenticated = () => auth.handleSessionEnded();

  const liveUrl = `${originOf(baseUrl).replace(/^http/, 'ws')}${LIVE_PATH}`;
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
    notifications: new NotificationsClient(transport),
    account: new AccountClient(transport, (user) => auth.handleProfileChanged(user)),
    access: new AccessClient(transport),
    admin: new AdminClient(transport, originOf(baseUrl)),
    live,
    transport,
    subscribe: (target, observer) => live.subscribe(target, observer),
    close: () => live.setEnabled(false),
  };
}

/** The whole client: auth, projects, live data and the storage service. */
export function createDojoClient(options: DojoClientOptions = {}): DojoClient {
  const client = createDojoCoreClient(options);
  const { auth } = client;
  return {
    ...client,
    storage: createStorage({
      baseUrl: originOf(options.baseUrl ?? ''),
      bucket: options.storageBucket ?? 'dojo',
      // Signed out means no Authorization header; the server then answers storage/unauthenticated.
      getToken: () => (auth.currentUser ? auth.getIdToken() : null),
      getAppCheckToken: options.getAppCheckToken,
    }),
  };
}
