import type { ChangeBus } from '../live/change-bus';

/** Projects remembered at once (≈ 1 KiB each); the least recently read goes first beyond this. */
const MAX_ENTRIES = 2000;

/**
 * Serialized single projects (`{ project }` bodies, UTF-8 bytes ready to send) by id. A project's body
 * changes only when the project does (completed) or when a user it shows (creator, assignees) changes
 * name or photo, so an entry is dropped on a change of its id, and all of them on any profile change or
 * resync. As with `ProjectListCache`, this instance's own writes drop the entry at commit; another
 * instance's arrive by PostgreSQL NOTIFY (milliseconds), and a generation counter keeps a body computed
 * while a change arrived from being stored.
 */
export class ProjectCache {
  private readonly entries = new Map<string, Buffer>();
  private generation = 0;

  constructor(bus: ChangeBus) {
    bus.subscribe((changes) => {
      if (changes === 'resync') {
        this.clear();
        return;
      }
      for (const change of changes) {
        if (change.collection === 'projects') this.forget(change.id);
        else if (change.collection === 'users' && change.scope === undefined) this.clear();
      }
    });
  }

  /** Called by this instance's writers right after they commit, so a writer always reads its own write. */
  forget(id: string): void {
    this.generation += 1;
    this.entries.delete(id);
  }

  /** The cached body, or `compute`'s (stored unless a change arrived meanwhile); null: no such project. */
  async get(id: string, compute: () => Promise<Buffer | null>): Promise<Buffer | null> {
    const cached = this.entries.get(id);
    if (cached !== undefined) {
      this.entries.delete(id);
      this.entries.set(id, cached);
      return cached;
    }
    const generation = this.generation;
    const body = await compute();
    if (body !== null && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(id, body);
    }
    return body;
  }

  private clear(): void {
    this.generation += 1;
    this.entries.clear();
  }
}
