import { performance } from 'node:perf_hooks';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import {
  LIVE_CLOSE_CODES,
  LiveClientMessageSchema,
  messages,
  type LiveCollection,
  type LiveDoc,
  type LiveServerMessage,
  type LiveTarget,
} from '../../common';
import type { Viewer } from '../core/viewer';
import { afterAnswers } from '../db/after-answers';
import { AppError } from '../core/app-error';
import type { Metrics } from '../core/metrics';
import type { Logger } from '../core/logger';
import type { Change, ChangeBus } from '../db/change-bus';
import { liveGroupKey, type LiveSource, type LiveSources } from './live-sources';
import { diffOf, resultStateOf, snapshotMessage, type ResultState } from './result-state';
import { Deadlines } from './deadlines';
import { GroupIndex } from './group-index';
import { SharedViewers } from './shared-viewers';
import { SocketCounts } from './socket-counts';
import { SlicedQueue } from './sliced-queue';
import { ChangeBatch } from './change-batch';
import { groupsReachedBy, type RoutedGroup } from './change-routing';
import { evaluateBatched } from './batched-evaluation';
import { SharedDiffFrames, sendSharedFrame, TEXT_MESSAGE } from './shared-frames';

/** A socket whose unsent backlog grows past this is closed; the client reconnects to a fresh snapshot. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
/** How long a closing socket may take to answer the close handshake during shutdown. */
const CLOSE_HANDSHAKE_MS = 1000;
/** Sockets written between two looks at the clock while one group's change goes out. */
const YIELD_CHECK_EVERY = 64;

export interface LiveLimits {
  maxSubscriptionsPerSocket: number;
  maxSocketsPerSession: number;
  maxSocketsPerUser: number;
}

interface Connection {
  socket: WebSocket;
  /**
   * The TCP stream under `socket`, when the upgrade handed it over: shared fan-out frames are written to it
   * whole (`textFrame`). `ws` itself writes to it synchronously (no compression), so the order holds.
   */
  stream: Duplex | undefined;
  viewer: Viewer;
  subscriptions: Map<string, Subscription>;
  /** The id token it was opened with runs out before the session does (the close code differs). */
  expiresByToken: boolean;
}

interface Subscription {
  id: string;
  source: LiveSource;
  /** Unique on this instance for the subscription's lifetime: what `LiveHubEvents` name it by. */
  key: string;
  connection: Connection;
  target: LiveTarget;
  groupKey: string;
  /** The last result this subscriber received; shared with its group while the two are in step. */
  state: ResultState;
}

/** Subscribers whose queries are equal for their viewers (`liveGroupKey`): evaluated once per change. */
interface Group extends RoutedGroup {
  key: string;
  subscriptions: Set<Subscription>;
}

/** A protocol error on one socket (bad frame, oversized message) ends that socket only. */
function terminateOnError(this: WebSocket): void {
  this.terminate();
}

export interface LiveHubEvents {
  onConnectionOpened?(viewer: Viewer): void;
  onConnectionClosed?(viewer: Viewer): void;
  /** A subscription was accepted (its snapshot is on its way); `key` names it until it ends. */
  onSubscriptionStarted?(key: string, viewer: Viewer, target: LiveTarget): void;
  /** Unsubscribed, replaced, failed, or its socket closed. */
  onSubscriptionEnded?(key: string): void;
}

/**
 * Live subscriptions for this instance. All work — first snapshots and re-evaluation after changes —
 * runs through one serial queue (`SlicedQueue`), so every subscriber sees changes in commit order and never
 * a change older than its snapshot. Identical queries are evaluated once per change and diffed per
 * subscriber. Its parts: the changes gathered into bursts (change-batch.ts), the groups a burst reaches
 * (change-routing.ts), the groups one read answers together (batched-evaluation.ts), and the diff frames
 * many sockets share (shared-frames.ts).
 */
export class LiveHub {
  private readonly connections = new Set<Connection>();
  private readonly viewers = new SharedViewers();
  private readonly groups = new Map<string, Group>();
  private readonly groupIndex = new GroupIndex<Group>();
  private readonly socketsPerSession = new SocketCounts();
  private readonly socketsPerUser = new SocketCounts();
  private readonly queue: SlicedQueue;
  private readonly pending = new ChangeBatch();
  private closed = false;
  private readonly unsubscribeBus: () => void;
  private subscriptionSerial = 0;
  /** Closes each socket when its session or id token runs out. */
  private readonly expiries = new Deadlines<Connection>((connection) => this.expire(connection));

  constructor(
    private readonly deps: {
      bus: ChangeBus;
      sources: LiveSources;
      log: Logger;
      limits: LiveLimits;
      events?: LiveHubEvents;
      metrics?: Pick<Metrics, 'observeFanOut'>;
      /**
       * Marks the commits made so far; what it returns resolves once they are durable (`DatabaseHandle`).
       * A burst of changes goes out only then, after the answer of the request that made it
       * (docs/decisions/031-answer-before-fan-out.md).
       */
      markCommits?: () => () => Promise<void>;
    },
  ) {
    this.queue = new SlicedQueue((error) => this.deps.log.error({ err: error }, 'live task failed'));
    this.unsubscribeBus = deps.bus.subscribe((changes) => this.handleChanges(changes));
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  get subscriptionCount(): number {
    let count = 0;
    for (const group of this.groups.values()) count += group.subscriptions.size;
    return count;
  }

  attach(socket: WebSocket, viewer: Viewer, stream?: Duplex): void {
    // An upgrade that completes while the server shuts down is not kept (it would hold shutdown open).
    if (this.closed) {
      socket.terminate();
      return;
    }
    socket.on('error', terminateOnError);
    const { limits } = this.deps;
    if (
      this.socketsPerSession.get(viewer.sessionHash) >= limits.maxSocketsPerSession ||
      this.socketsPerUser.get(viewer.uid) >= limits.maxSocketsPerUser
    ) {
      // Accepted, then closed with a reason a browser can read (a refused upgrade only shows as 1006).
      socket.send(
        JSON.stringify({
          type: 'error',
          code: 'too-many-requests',
          message: messages.tooManyLiveConnections,
        } satisfies LiveServerMessage),
      );
      socket.close(LIVE_CLOSE_CODES.tooManySockets, 'too many live connections');
      return;
    }
    this.socketsPerSession.add(viewer.sessionHash, 1);
    this.socketsPerUser.add(viewer.uid, 1);
    const connection: Connection = {
      socket,
      stream,
      viewer: this.viewers.acquire(viewer),
      subscriptions: new Map(),
      expiresByToken: false,
    };
    this.connections.add(connection);
    this.closeOnExpiry(connection, viewer);
    this.deps.events?.onConnectionOpened?.(connection.viewer);
    this.send(connection, { type: 'welcome', uid: viewer.uid });
    socket.on('message', (data) => this.handleMessage(connection, String(data)));
    socket.on('close', () => {
      this.expiries.delete(connection);
      if (!this.connections.delete(connection)) return;
      this.socketsPerSession.add(connection.viewer.sessionHash, -1);
      this.socketsPerUser.add(connection.viewer.uid, -1);
      for (const subscription of connection.subscriptions.values()) this.removeSubscription(subscription);
      this.viewers.release(connection.viewer);
      this.deps.events?.onConnectionClosed?.(connection.viewer);
    });
  }

  /** Viewers with at least one open socket on this instance. */
  connectedUserIds(): Set<string> {
    return new Set([...this.connections].map((connection) => connection.viewer.uid));
  }

  close(): void {
    this.closed = true;
    this.unsubscribeBus();
    this.expiries.clear();
    for (const connection of this.connections) {
      const { socket } = connection;
      socket.close(1001, 'server shutting down');
      // A client that never answers the closing handshake must not hold shutdown open.
      setTimeout(() => socket.terminate(), CLOSE_HANDSHAKE_MS).unref();
    }
  }

  private handleMessage(connection: Connection, raw: string): void {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      json = undefined;
    }
    const parsed = LiveClientMessageSchema.safeParse(json);
    if (!parsed.success) {
      this.send(connection, { type: 'error', code: 'invalid-argument', message: messages.badRequest });
      return;
    }
    const message = parsed.data;
    if (message.type === 'unsubscribe') {
      const subscription = connection.subscriptions.get(message.id);
      if (subscription) this.removeSubscription(subscription);
      return;
    }
    const previous = connection.subscriptions.get(message.id);
    if (previous) {
      this.removeSubscription(previous);
    } else if (connection.subscriptions.size >= this.deps.limits.maxSubscriptionsPerSocket) {
      this.send(connection, {
        type: 'error',
        id: message.id,
        code: 'too-many-requests',
        message: messages.tooManySubscriptions,
      });
      return;
    }
    const source = this.deps.sources[message.target.collection];
    if (!source) {
      this.send(connection, {
        type: 'error',
        id: message.id,
        code: 'invalid-argument',
        message: messages.badRequest,
      });
      return;
    }
    const subscription: Subscription = {
      id: message.id,
      source,
      key: String((this.subscriptionSerial += 1)),
      connection,
      target: message.target,
      groupKey: liveGroupKey(source, message.target, connection.viewer),
      state: { order: [], json: new Map() },
    };
    connection.subscriptions.set(message.id, subscription);
    this.deps.events?.onSubscriptionStarted?.(subscription.key, connection.viewer, subscription.target);
    this.queue.enqueue(() => this.sendSnapshot(subscription));
  }

  /**
   * Every subscriber is authorized by its source before it sees anything, whether it starts a group or
   * joins one (docs/decisions/042-every-live-viewer-authorized.md). Joining a query that others already
   * follow then costs no query and no copy: the subscriber receives the group's current result and shares
   * its state. That is also exact: any change not yet applied to that state is pending in this same queue
   * and will reach the new subscriber as a diff.
   */
  private async sendSnapshot(subscription: Subscription): Promise<void> {
    const { connection, source } = subscription;
    if (connection.subscriptions.get(subscription.id) !== subscription) return;
    const refuse = (error: unknown) => {
      connection.subscriptions.delete(subscription.id);
      this.deps.events?.onSubscriptionEnded?.(subscription.key);
      this.sendError(connection, subscription.id, error);
    };
    try {
      await source.authorize(subscription.target, connection.viewer);
    } catch (error) {
      refuse(error);
      return;
    }
    if (connection.subscriptions.get(subscription.id) !== subscription) return;
    let group = this.groups.get(subscription.groupKey);
    if (!group) {
      let docs: LiveDoc[];
      try {
        docs = await this.evaluate(subscription.target, connection.viewer);
      } catch (error) {
        refuse(error);
        return;
      }
      // The evaluation awaited: another subscriber of the same query may have created the group meanwhile.
      group = this.groups.get(subscription.groupKey);
      if (!group) {
        group = {
          key: subscription.groupKey,
          target: subscription.target,
          viewer: connection.viewer,
          readScope: source.resultsBelongTo === 'viewer' ? connection.viewer.uid : '',
          subscriptions: new Set(),
          state: resultStateOf(
            docs,
            docs.map((doc) => JSON.stringify(doc)),
          ),
        };
        this.groups.set(group.key, group);
        this.groupIndex.add(group);
      }
    }
    if (connection.subscriptions.get(subscription.id) !== subscription) return;
    // The subscription's own parsed target and key are equal to the group's: keep one copy alive.
    subscription.target = group.target;
    subscription.groupKey = group.key;
    subscription.state = group.state;
    group.subscriptions.add(subscription);
    this.sendRaw(connection, snapshotMessage(subscription.id, group.state));
  }

  private removeSubscription(subscription: Subscription): void {
    subscription.connection.subscriptions.delete(subscription.id);
    this.deps.events?.onSubscriptionEnded?.(subscription.key);
    const group = this.groups.get(subscription.groupKey);
    if (!group?.subscriptions.delete(subscription)) return;
    if (group.subscriptions.size === 0) {
      this.groups.delete(group.key);
      this.groupIndex.remove(group);
    }
  }

  private handleChanges(changes: Change[] | 'resync'): void {
    this.pending.arriving(this.deps.markCommits);
    if (changes === 'resync') {
      this.pending.resyncAll();
    } else {
      for (const change of changes) {
        if (change.collection === 'sessions') this.signOutSession(change.id);
        else this.pending.add(change);
      }
    }
    if (this.pending.claimFlush()) this.queue.enqueue(() => this.flush());
  }

  /** Re-evaluates the groups a burst of changes reaches, and sends each subscriber its diff. */
  private async flush(): Promise<void> {
    const burst = this.pending.take();
    if (burst.durable) await this.untilAnswered(burst.durable);
    let framesWritten = false;

    const dirty = await groupsReachedBy(burst, {
      groups: this.groups,
      index: this.groupIndex,
      readDoc: (collection, id, viewer) => this.readDoc(collection, id, viewer),
      queue: this.queue,
    });

    const batched = await evaluateBatched(dirty, this.deps.sources, this.deps.log);
    for (const group of dirty) {
      await this.queue.yieldWhenSliceUsed();
      if (this.groups.get(group.key) !== group) continue;
      let docs: LiveDoc[];
      try {
        docs = batched.get(group) ?? (await this.evaluate(group.target, group.viewer));
      } catch (error) {
        this.deps.log.error({ err: error }, 'live re-evaluation failed');
        continue;
      }
      const json = docs.map((doc) => JSON.stringify(doc));
      const previous = group.state;
      const next = resultStateOf(docs, json);
      group.state = next;
      // Its last subscriber may have left while it was evaluated: a removed group stays out of the index.
      if (this.groups.get(group.key) === group) this.groupIndex.resultChanged(group, previous, next);
      // Subscribers in step with the group share one diff, encoded once per subscription id.
      const shared = diffOf(previous, docs, json);
      const sharedFrames = shared.length > 0 ? new SharedDiffFrames(JSON.stringify(shared)) : null;
      let sent = 0;
      for (const subscription of group.subscriptions) {
        // One group can hold 10,000 dashboards: its sends are sliced too, so a create's own answer (and
        // every other request) does not wait for the last socket (decision 028). A subscriber that joins
        // meanwhile starts from `next` (its snapshot is queued behind this flush); one that leaves is skipped.
        if ((sent += 1) % YIELD_CHECK_EVERY === 0) await this.queue.yieldWhenSliceUsed();
        if (subscription.state === previous) {
          if (sharedFrames) {
            this.sendShared(subscription.connection, sharedFrames, subscription.id);
            framesWritten = true;
          }
        } else {
          const own = diffOf(subscription.state, docs, json);
          if (own.length > 0) {
            this.send(subscription.connection, { type: 'changes', id: subscription.id, changes: own });
            framesWritten = true;
          }
        }
        subscription.state = next;
      }
    }
    if (framesWritten && burst.receivedAt !== undefined) {
      this.deps.metrics?.observeFanOut((performance.now() - burst.receivedAt) / 1000);
    }
  }

  /** The changes' commits are durable and their writers' answers left (`afterAnswers`). */
  private async untilAnswered(durable: () => Promise<void>): Promise<void> {
    await afterAnswers(durable, (error) =>
      this.deps.log.warn({ err: error }, 'live fan-out went on without a durable commit'),
    );
    this.queue.startSlice();
  }

  private async readDoc(collection: LiveCollection, id: string, viewer: Viewer): Promise<LiveDoc | null> {
    const source = this.deps.sources[collection];
    return source ? source.find(id, viewer) : null;
  }

  private async evaluate(target: LiveTarget, viewer: Viewer): Promise<LiveDoc[]> {
    const source = this.deps.sources[target.collection];
    if (!source) return [];
    if (target.kind === 'doc') {
      const doc = await source.find(target.id, viewer);
      return doc ? [doc] : [];
    }
    return source.query(target, viewer);
  }

  private signOutSession(sessionHash: string): void {
    for (const connection of this.connections) {
      if (connection.viewer.sessionHash !== sessionHash) continue;
      this.endSession(connection, 'signed out');
    }
  }

  private endSession(connection: Connection, reason: string): void {
    this.send(connection, { type: 'signed-out' });
    connection.socket.close(LIVE_CLOSE_CODES.signedOut, reason);
  }

  /**
   * A socket is only as good as what opened it: it closes when its session ends, or when the id token it
   * was opened with expires first (a leaked token must not buy a socket that outlives it). Uses the
   * viewer the socket was opened with, not the shared copy, which another socket's token may have made.
   */
  private closeOnExpiry(connection: Connection, opened: Viewer): void {
    const { tokenExpiresAt, sessionExpiresAt } = opened;
    connection.expiresByToken = tokenExpiresAt !== undefined && tokenExpiresAt < sessionExpiresAt;
    this.expiries.add(connection, connection.expiresByToken ? (tokenExpiresAt ?? 0) : sessionExpiresAt);
  }

  private expire(connection: Connection): void {
    if (connection.expiresByToken) {
      connection.socket.close(LIVE_CLOSE_CODES.tokenExpired, 'id token expired');
    } else {
      this.endSession(connection, 'session expired');
    }
  }

  private sendError(connection: Connection, id: string, error: unknown): void {
    if (error instanceof AppError) {
      this.send(connection, { type: 'error', id, code: error.code, message: error.message });
    } else {
      this.deps.log.error({ err: error }, 'live subscription failed');
      this.send(connection, { type: 'error', id, code: 'internal', message: messages.fetchFailed });
    }
  }

  private send(connection: Connection, message: LiveServerMessage): void {
    this.sendRaw(connection, JSON.stringify(message));
  }

  /** Sends one text message. */
  private sendRaw(connection: Connection, text: string): void {
    if (this.mayWrite(connection)) connection.socket.send(text, TEXT_MESSAGE);
  }

  /** Sends the subscriber its frame of a diff many sockets share. */
  private sendShared(connection: Connection, frames: SharedDiffFrames, subscriptionId: string): void {
    if (!this.mayWrite(connection)) return;
    sendSharedFrame(connection.socket, connection.stream, frames.frameFor(subscriptionId));
  }

  /** Open, and not so far behind that it is cut off instead (a reader that stopped reading). */
  private mayWrite(connection: Connection): boolean {
    const { socket } = connection;
    if (socket.readyState !== socket.OPEN) return false;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      socket.terminate();
      return false;
    }
    return true;
  }
}
