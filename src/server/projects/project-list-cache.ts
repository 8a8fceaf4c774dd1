import type { ChangeBus } from '../live/change-bus';

const MAX_ENTRIES = 32;

/**
 * Serialized project lists by query (UTF-8 bytes, ready to send), dropped on every change that can alter any list (a project, or a
 * user whose name or photo a list shows). A generation counter makes sure a list computed while a
 * change arrived is never stored: readers get at worst a result as fresh as a direct query.
 * Every instance receives every change (PostgreSQL NOTIFY), so each keeps its own cache correct.
 */
export class ProjectListCache {
  private readonly entries = new Map<string, Buffer>();
  private generation = 0;
  constructor(bus: ChangeBus) {
    bus.subscribe((changes) => {
      if (
        changes === 'resync' ||
        changes.some((change) => change.collection !== 'sessions' && change.scope !== 'comments')
      ) {
        this.generation += 1;
        this.entries.clear();
      }
    });
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
