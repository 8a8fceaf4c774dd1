import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import {
  LIVE_CLOSE_CODES,
  LiveClientMessageSchema,
  messages,
  type LiveCollection,
  type LiveDoc,
  type LiveQuery,
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
import { matchesWhere, mayBeInRange, rangeField } from './matches-where';
import { changesMessage, diffOf, resultStateOf, snapshotMessage, type ResultState } from './result-state';
import { Deadlines } from './deadlines';
import { GroupIndex } from './group-index';
import { SharedViewers } from './shared-viewers';
import { SocketCounts } from './socket-counts';
import { textFrame } from './text-frame';

/** A socket whose unsent backlog grows past this is closed; the client reconnects to a fresh snapshot. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
/** How long a closing socket may take to answer the close handshake during shutdown. */
const CLOSE_HANDSHAKE_MS = 1000;
/**
 * The serial queue runs at most this long before it lets the event loop serve other work (HTTP requests,
 * socket reads). On SQLite every query is synchronous, so without this one burst of changes over many
 * query groups would hold every other request until all of them were re-evaluated.
 */
const QUEUE_SLICE_MS = 5;
/** Sockets written between two looks at the clock while one group's change goes out. */
const YIELD_CHECK_EVERY = 64;
/** `ws` sends a Buffer as a binary message unless told otherwise; the protocol's messages are text. */
const TEXT_FRAME = { binary: false } as const;

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

interface Group {
  key: string;
  target: LiveTarget;
  /** The viewer it is evaluated for: any of its subscribers' (their results are equal, `liveGroupKey`). */
  viewer: Viewer;
  /** Names whose reads a changed doc's read-back may share: the owner where results are one viewer's own. */
  readScope: string;
  subscriptions: Set<Subscription>;
  /** The group's last evaluated result: a change to one of its docs always needs a re-evaluation. */
  state: ResultState;
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
 * runs through one serial queue, so every subscriber sees changes in commit order and never a change
 * older than its snapshot. Identical queries are evaluated once per change and diffed per subscriber.
 */
export class LiveHub {
  private readonly connections = new Set<Connection>();
  private readonly viewers = new SharedViewers();
  private readonly groups = new Map<string, Group>();
  private readonly groupIndex = new GroupIndex<Group>();
  private readonly socketsPerSession = new SocketCounts();
  private readonly socketsPerUser = new SocketCounts();
  /** Tasks enqueued and not yet finished; a slice starts when the queue turns busy. */
  private queuedTasks = 0;
  private sliceStartedAt = 0;
  private pendingChanges: Change[] = [];
  private resyncPending = false;
  /** When the oldest change not yet flushed arrived (for the fan-out latency metric). */
  private pendingSince: number | undefined;
  /** Resolves once the commits of the pending changes are durable. */
  private pendingDurable: (() => Promise<void>) | undefined;
  private queue: Promise<void> = Promise.resolve();
  private flushScheduled = false;
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
    this.enqueue(() => this.sendSnapshot(subscription));
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
    this.pendingSince ??= performance.now();
    // The latest mark covers the commits of every change pending so far.
    this.pendingDurable = this.deps.markCommits?.();
    if (changes === 'resync') {
      this.resyncPending = true;
    } else {
      for (const change of changes) {
        if (change.collection === 'sessions') this.signOutSession(change.id);
        else this.pendingChanges.push(change);
      }
    }
    if ((this.resyncPending || this.pendingChanges.length > 0) && !this.flushScheduled) {
      this.flushScheduled = true;
      this.enqueue(() => this.flush());
    }
  }

  /**
   * Re-evaluates the groups a burst of changes can affect. A query group is affected when a changed doc
   * was in its last result, or now matches its filters; each changed doc is read once to decide.
   */
  private async flush(): Promise<void> {
    this.flushScheduled = false;
    const changes = this.pendingChanges;
    this.pendingChanges = [];
    const resync = this.resyncPending;
    this.resyncPending = false;
    const receivedAt = this.pendingSince;
    this.pendingSince = undefined;
    const durable = this.pendingDurable;
    this.pendingDurable = undefined;
    if (durable) await this.untilAnswered(durable);
    let framesWritten = false;

    const dirty = new Set<Group>();
    if (resync) for (const group of this.groups.values()) dirty.add(group);
    const current = new Map<string, LiveDoc | null>();
    for (const change of changes) {
      if (change.collection === 'sessions') continue;
      const candidates = this.groupIndex.candidates(change);
      for (const group of candidates === 'all' ? this.groups.values() : candidates) {
        // Changes × groups can be a million pairs (1,000 members' bells, 1,000 changes): await only when due.
        if (performance.now() - this.sliceStartedAt >= QUEUE_SLICE_MS) await this.yieldWhenSliceUsed();
        const { target } = group;
        if (dirty.has(group)) continue;
        if (target.collection !== change.collection) {
          if (showsUserOf(change, group)) dirty.add(group);
          continue;
        }
        if (target.kind === 'doc') {
          if (target.id === change.id) dirty.add(group);
          continue;
        }
        if (group.state.json.has(change.id)) {
          dirty.add(group);
          continue;
        }
        const { after } = change;
        if (after === null) continue;
        const bound = rangeField(target);
        if (
          after &&
          (target.where ?? []).every((clause) => Object.hasOwn(after, clause.field)) &&
          (bound === undefined || Object.hasOwn(after, bound))
        ) {
          if (matchesWhere(after, target.where) && mayBeInRange(after, target)) dirty.add(group);
          continue;
        }
        const key = JSON.stringify([change.collection, change.id, group.readScope]);
        if (!current.has(key))
          current.set(key, await this.readDoc(change.collection, change.id, group.viewer));
        const doc = current.get(key);
        if (doc && matchesWhere(doc, target.where) && mayBeInRange(doc, target)) dirty.add(group);
      }
    }

    const batched = await this.evaluateBatched(dirty);
    for (const group of dirty) {
      await this.yieldWhenSliceUsed();
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
      // Subscribers in step with the group share one diff, serialized and encoded once per subscription
      // id (dashboards all use the same few ids): a socket then only gets a ready buffer written to it.
      const shared = diffOf(previous, docs, json);
      const sharedJson = shared.length > 0 ? JSON.stringify(shared) : null;
      const sharedFrames = new Map<string, SharedFrame>();
      let sent = 0;
      for (const subscription of group.subscriptions) {
        // One group can hold 10,000 dashboards: its sends are sliced too, so a create's own answer (and
        // every other request) does not wait for the last socket (decision 028). A subscriber that joins
        // meanwhile starts from `next` (its snapshot is queued behind this flush); one that leaves is skipped.
        if ((sent += 1) % YIELD_CHECK_EVERY === 0) await this.yieldWhenSliceUsed();
        if (subscription.state === previous) {
          if (sharedJson) {
            let frame = sharedFrames.get(subscription.id);
            if (!frame) {
              frame = sharedFrameOf(changesMessage(subscription.id, sharedJson));
              sharedFrames.set(subscription.id, frame);
            }
            this.sendShared(subscription.connection, frame);
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
    if (framesWritten && receivedAt !== undefined) {
      this.deps.metrics?.observeFanOut((performance.now() - receivedAt) / 1000);
    }
  }

  /** The changes' commits are durable and their writers' answers left (`afterAnswers`). */
  private async untilAnswered(durable: () => Promise<void>): Promise<void> {
    await afterAnswers(durable, (error) =>
      this.deps.log.warn({ err: error }, 'live fan-out went on without a durable commit'),
    );
    this.sliceStartedAt = performance.now();
  }

  /** Results of the groups whose source answers many queries with one read; the rest are left out. */
  private async evaluateBatched(groups: Set<Group>): Promise<Map<Group, LiveDoc[]>> {
    const byCollection = new Map<LiveCollection, { group: Group; query: LiveQuery }[]>();
    for (const group of groups) {
      const { target } = group;
      if (target.kind !== 'query' || !this.deps.sources[target.collection]?.queryMany) continue;
      const entry = { group, query: target };
      const list = byCollection.get(target.collection);
      if (list) list.push(entry);
      else byCollection.set(target.collection, [entry]);
    }
    const results = new Map<Group, LiveDoc[]>();
    for (const [collection, list] of byCollection) {
      if (list.length < 2) continue;
      try {
        const answers = await this.deps.sources[collection]?.queryMany?.(
          list.map(({ group, query }) => ({ query, viewer: group.viewer })),
        );
        list.forEach(({ group }, index) => {
          const docs = answers?.[index];
          if (docs) results.set(group, docs);
        });
      } catch (error) {
        // Each group is then evaluated on its own, which reports what is wrong with it.
        this.deps.log.warn({ err: error }, 'live batched re-evaluation failed');
      }
    }
    return results;
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

  private enqueue(task: () => Promise<void>): void {
    if (this.queuedTasks === 0) this.sliceStartedAt = performance.now();
    this.queuedTasks += 1;
    this.queue = this.queue
      .then(async () => {
        await this.yieldWhenSliceUsed();
        await task();
      })
      .catch((error: unknown) => this.deps.log.error({ err: error }, 'live task failed'))
      .finally(() => {
        this.queuedTasks -= 1;
      });
  }

  /**
   * Lets the event loop run (timers, I/O, other requests) once the queue has worked for a slice. The
   * queue stays serial: nothing else of the hub's runs meanwhile, so order and snapshots stay exact.
   */
  private async yieldWhenSliceUsed(): Promise<void> {
    if (performance.now() - this.sliceStartedAt < QUEUE_SLICE_MS) return;
    await nextTurn();
    this.sliceStartedAt = performance.now();
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
    if (this.mayWrite(connection)) connection.socket.send(text, TEXT_FRAME);
  }

  /** Sends a message many sockets get: its whole frame in one write when the stream is at hand. */
  private sendShared(connection: Connection, frame: SharedFrame): void {
    if (!this.mayWrite(connection)) return;
    if (connection.stream) connection.stream.write(frame.whole);
    else connection.socket.send(frame.payload, TEXT_FRAME);
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

/** A message many sockets get, encoded once: its UTF-8 bytes, and the whole WebSocket frame around them. */
interface SharedFrame {
  payload: Buffer;
  whole: Buffer;
}

function sharedFrameOf(message: string): SharedFrame {
  const payload = Buffer.from(message);
  return { payload, whole: textFrame(payload) };
}

/**
 * Projects, comments and project viewers show their people's names and pictures (joined when read), so a profile change
 * (not a presence flag) re-reads every project or comment result that names the user.
 */
function showsUserOf(change: Change, group: Group): boolean {
  if (change.collection !== 'users' || change.scope !== undefined) return false;
  if (!['projects', 'comments', 'project_viewers'].includes(group.target.collection)) return false;
  const quotedId = JSON.stringify(change.id);
  for (const json of group.state.json.values()) if (json.includes(quotedId)) return true;
  return false;
}
