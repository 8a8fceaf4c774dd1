/**
 * A map of at most `max` entries, the least recently set dropped first: what an instance remembers of the
 * uploads it is taking (hash states, sessions). A dropped entry must only cost work, never correctness.
 */
export class RecentMap<V> {
  private readonly values = new Map<string, V>();

  constructor(private readonly max: number) {}

  get(key: string): V | undefined {
    return this.values.get(key);
  }

  take(key: string): V | undefined {
    const value = this.values.get(key);
    this.values.delete(key);
    return value;
  }

  set(key: string, value: V): void {
    this.values.delete(key);
    this.values.set(key, value);
    if (this.values.size > this.max) {
      const oldest = this.values.keys().next();
      if (!oldest.done) this.values.delete(oldest.value);
    }
  }

  delete(key: string): void {
    this.values.delete(key);
  }
}
