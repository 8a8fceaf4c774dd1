import {
  type LiveChange,
  type LiveClientMessage,
  type LiveDoc,
  type LiveServerMessage,
  type LiveTarget,
} from '../common';
import { DojoError } from './errors';

export interface LiveObserver<T extends LiveDoc = LiveDoc> {
  /** The whole current result, after the first snapshot and after every batch of changes. */
  next: (docs: T[], changes: LiveChange<T>[]) => void;
  error?: (error: DojoError) => void;
}

/** The part of the WebSocket API we use; browsers' WebSocket and the `ws` package both fit. */
export interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export type SocketFactory = (url: string) => SocketLike;

/**
 * `offline`: signed out, no socket wanted. `connecting`: the first attempt. `online`: the socket is open
 * and every subscription was sent again. `reconnecting`: the socket was lost (or never opened) and the
 * client is retrying; results shown meanwhile may be stale.
 */
export type LiveStatus = 'offline' | 'connecting' | 'online' | 'reconnecting';

interface Subscription {
  target: LiveTarget;
  observer: LiveObserver;
  docs: LiveDoc[];
}

const OPEN = 1;
const RECONNECT_BASE_MS = 250;
const RECONNECT_MAX_MS = 10_000;

/**
 * One WebSocket per client. Subscriptions outlive the socket: after a reconnect every one is sent
 * again and the server answers with a fresh snapshot, so no change is ever silently missed.
 */
export class LiveClient {
  private socket: SocketLike | null = null;
  private readonly subscriptions = new Map<string, Subscription>();
  private nextId = 1;
  private reconnectAttempts = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private enabled = false;
  private currentStatus: LiveStatus = 'offline';
  private readonly statusListeners = new Set<(status: LiveStatus) => void>();

  constructor(
    private readonly url: string,
    private readonly createSocket: SocketFactory,
    private readonly onSignedOut: () => void,
  ) {}

  subscribe<T extends LiveDoc>(target: LiveTarget, observer: LiveObserver<T>): () => void {
    const id = String(this.nextId++);
    this.subscriptions.set(id, { target, observer: observer as unknown as LiveObserver, docs: [] });
    if (this.socket?.readyState === OPEN) this.send({ type: 'subscribe', id, target });
    else this.ensureSocket();
    return () => {
      if (!this.subscriptions.delete(id)) return;
      if (this.socket?.readyState === OPEN) this.send({ type: 'unsubscribe', id });
    };
  }

  /** Allow connecting (signed in) or close and stay closed (signed out). */
  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    if (enabled) {
      this.ensureSocket();
    } else {
      this.clearReconnect();
      const socket = this.socket;
      this.socket = null;
      socket?.close(1000, 'signed out');
      this.setStatus('offline');
    }
  }

  /** Drop the current socket as a network failure would; the client reconnects on its own. */
  dropConnection(): void {
    this.socket?.close(4000, 'dropped');
  }

  get connected(): boolean {
    return this.socket?.readyState === OPEN;
  }

  get status(): LiveStatus {
    return this.currentStatus;
  }

  /** Calls `listener` on every change of `status`; returns the function that stops it. */
  onStatusChanged(listener: (status: LiveStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  private setStatus(status: LiveStatus): void {
    if (status === this.currentStatus) return;
    this.currentStatus = status;
    for (const listener of this.statusListeners) listener(status);
  }

  private ensureSocket(): void {
    if (!this.enabled || this.socket || this.reconnectTimer) return;
    if (this.currentStatus === 'offline') this.setStatus('connecting');
    const socket = this.createSocket(this.url);
    this.socket = socket;
    socket.onopen = () => {
      for (const [id, { target }] of this.subscriptions) this.send({ type: 'subscribe', id, target });
      this.setStatus('online');
    };
    socket.onmessage = (event) => this.handleMessage(String(event.data));
    socket.onerror = () => undefined;
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    if (!this.enabled) return;
    this.setStatus('reconnecting');
    const delay = Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** this.reconnectAttempts);
    this.reconnectAttempts += 1;
    // Jitter so a restarted server is not hit by every tab at the same instant.
    this.reconnectTimer = setTimeout(
      () => {
        this.reconnectTimer = null;
        this.ensureSocket();
      },
      delay / 2 + Math.random() * (delay / 2),
    );
  }

  private clearReconnect(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.reconnectAttempts = 0;
  }

  private send(message: LiveClientMessage): void {
    this.socket?.send(JSON.stringify(message));
  }

  private handleMessage(raw: string): void {
    let message: LiveServerMessage;
    try {
      message = JSON.parse(raw) as LiveServerMessage;
    } catch {
      return;
    }
    switch (message.type) {
      case 'snapshot': {
        const subscription = this.subscriptions.get(message.id);
        if (!subscription) return;
        subscription.docs = message.docs;
        subscription.observer.next(subscription.docs, []);
        return;
      }
      case 'changes': {
        const subscription = this.subscriptions.get(message.id);
        if (!subscription) return;
        subscription.docs = applyChanges(subscription.docs, message.changes);
        subscription.observer.next(subscription.docs, message.changes);
        return;
      }
      case 'error': {
        const error = new DojoError(message.code, message.message, 0);
        if (message.id === undefined) return;
        const subscription = this.subscriptions.get(message.id);
        this.subscriptions.delete(message.id);
        subscription?.observer.error?.(error);
        return;
      }
      case 'signed-out':
        this.onSignedOut();
        return;
      case 'welcome':
        // Only an accepted socket resets the backoff: one refused right after opening (too many tabs,
        // close code 4008) keeps backing off instead of reconnecting four times a second.
        this.reconnectAttempts = 0;
        return;
    }
  }
}

/**
 * Applies a batch of changes to a result. Unchanged docs keep their relative order, so removing every
 * changed doc first and then inserting added/modified ones by ascending `newIndex` rebuilds the server's
 * order exactly.
 */
export function applyChanges<T extends LiveDoc>(docs: T[], changes: LiveChange<T>[]): T[] {
  const changedIds = new Set(changes.map((change) => change.doc.id));
  const next = docs.filter((doc) => !changedIds.has(doc.id));
  const placed = changes
    .filter((change) => change.type !== 'removed')
    .sort((a, b) => (a.newIndex ?? Number.MAX_SAFE_INTEGER) - (b.newIndex ?? Number.MAX_SAFE_INTEGER));
  for (const change of placed)
    next.splice(Math.min(change.newIndex ?? next.length, next.length), 0, change.doc);
  return next;
}
