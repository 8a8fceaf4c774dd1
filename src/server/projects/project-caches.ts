import { forgetOnChange, type ChangeBus } from '../db/change-bus';

/**
 * Serialized response bodies (UTF-8 bytes, ready to send) kept until a change can alter them, least
 * recently read dropped first beyond `capacity`. This instance's writers drop entries at commit, so a
 * writer always reads its own write; another instance's writes arrive by PostgreSQL NOTIFY (milliseconds).
 * A generation counter keeps a body computed while a change arrived from being stored.
 */
class BodyCache<Body extends Buffer | null> {
  private readonly entries = new Map<string, Exclude<Body, null>>();
  /** Bodies being computed, by key, with the generation they started in. */
  private readonly computing = new Map<string, { generation: number; body: Promise<Body> }>();
  private generation = 0;
  private bytes = 0;

  /** At most `capacity` bodies and `maxBytes` bytes of them (a 1,000-project list is ≈ 1.1 MB). */
  constructor(
    private readonly capacity: number,
    private readonly maxBytes: number,
  ) {}

  /** The cached body, or `compute`'s (stored unless a change arrived meanwhile; null is never stored). */
  async get(key: string, compute: () => Promise<Body>): Promise<Body> {
    const cached = this.entries.get(key);
    if (cached !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached;
    }
    const generation = this.generation;
    // Requests that miss together share one computation (after a write, every open dashboard's request
    // misses at once): safe while the generation is the same, as no change has arrived since it started.
    const inFlight = this.computing.get(key);
    if (inFlight?.generation === generation) return inFlight.body;
    const computed = compute();
    this.computing.set(key, { generation, body: computed });
    let body: Body;
    try {
      body = await computed;
    } finally {
      if (this.computing.get(key)?.body === computed) this.computing.delete(key);
    }
    if (body !== null && generation === this.generation && body.length <= this.maxBytes) {
      while (this.entries.size >= this.capacity || this.bytes + body.length > this.maxBytes) {
        this.evictOldest();
      }
      this.entries.set(key, body as Exclude<Body, null>);
      this.bytes += body.length;
    }
    return body;
  }

  forget(key: string): void {
    this.generation += 1;
    const body = this.entries.get(key);
    if (body === undefined) return;
    this.entries.delete(key);
    this.bytes -= body.length;
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.bytes = 0;
  }

  private evictOldest(): void {
    const [key, body] = this.entries.entries().next().value as [string, Exclude<Body, null>];
    this.entries.delete(key);
    this.bytes -= body.length;
  }
}

/** Project lists remembered at once, by query, and their bytes (decision 028: memory earns its keep). */
const LIST_CAPACITY = 32;
const LIST_MAX_BYTES = 4 * 1024 * 1024;
/** Single projects remembered at once (≈ 1 KiB each), and their bytes. */
const PROJECT_CAPACITY = 2000;
const PROJECT_MAX_BYTES = 2 * 1024 * 1024;

/**
 * `{ projects }` bodies by query: any project change, or a change of a user's name or photo (which lists
 * show), drops them all.
 */
export function createProjectListCache(bus: ChangeBus): BodyCache<Buffer> {
  const cache = new BodyCache<Buffer>(LIST_CAPACITY, LIST_MAX_BYTES);
  bus.subscribe((changes) => {
    const listsChanged =
      changes === 'resync' ||
      changes.some(
        (change) =>
          (change.collection === 'projects' || change.collection === 'users') && change.scope === undefined,
      );
    if (listsChanged) cache.clear();
  });
  return cache;
}

/**
 * `{ project }` bodies by id, or null for no such project (not stored). A project's body changes only when
 * the project does, or when a user it shows (creator, assignees) changes name or photo.
 */
export function createProjectCache(bus: ChangeBus): BodyCache<Buffer | null> {
  const cache = new BodyCache<Buffer | null>(PROJECT_CAPACITY, PROJECT_MAX_BYTES);
  forgetOnChange(bus, {
    forget: (change) => {
      if (change.collection === 'projects') cache.forget(change.id);
      else if (change.collection === 'users' && change.scope === undefined) cache.clear();
    },
    forgetAll: () => cache.clear(),
  });
  return cache;
}
