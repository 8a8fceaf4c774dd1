import type { ChangeBus } from '../live/change-bus';

const MAX_ENTRIES = 32;

/**
 * Serialized project lists by query (UTF-8 bytes, ready to send), dropped on every change that can alter
 * a list (a project, or a user whose name or photo lists show). A generation counter makes sure a list
 * computed while a change arrived is never stored. Writes through this instance invalidate at commit;
 * writes through another instance arrive by PostgreSQL NOTIFY, so a read there may trail a remote write
 * by that delivery time (milliseconds), never more.
 */
export class ProjectListCache {
  private readonly entries = new Map<string, Buffer>();
  private generation = 0;

  constructor(bus: ChangeBus) {
    bus.subscribe((changes) => {
      if (
        changes === 'resync' ||
        changes.some(
          (change) =>
            (change.collection === 'projects' || change.collection === 'users') && change.scope === undefined,
        )
      ) {
        this.invalidate();
      }
    });
  }

  /** Called by this instance's writers right after they commit, so a writer always reads its own write. */
  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
  }

  async get(key: string, compute: () => Promise<Buffer>): Promise<Buffer> {
    const cached = this.entries.get(key);
    if (cached !== undefined) {
      // Least recently used goes first when the map is full.
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached;
    }
    const generation = this.generation;
    const body = await compute();
    if (generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, body);
    }
    return body;
  }
}
