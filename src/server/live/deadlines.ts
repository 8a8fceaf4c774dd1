/** setTimeout's longest delay (about 24.8 days); a later deadline is reached in several steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Deadlines are kept to the second: one group, and one timer, for every item due within the same second. */
const GRAIN_MS = 1000;

/**
 * Many items' deadlines on one timer. The live hub closes each socket when its session or id token runs
 * out; a timer per socket costs heap for each (the Timeout, its closure and that closure's context),
 * which adds up with many idle tabs. Items are grouped by the second their deadline falls in, and `onDue`
 * runs for each at the end of that second at the latest, never before its deadline.
 */
export class Deadlines<T> {
  private readonly bySecond = new Map<number, Set<T>>();
  private readonly secondOf = new Map<T, number>();
  private timer: NodeJS.Timeout | undefined;
  /** The second the timer is set for; Infinity when none is. */
  private armedFor = Infinity;

  constructor(private readonly onDue: (item: T) => void) {}

  get size(): number {
    return this.secondOf.size;
  }

  /** Calls `onDue(item)` once `at` (ms since the epoch) has passed, unless `delete(item)` comes first. */
  add(item: T, at: number): void {
    this.delete(item);
    const second = Math.ceil(at / GRAIN_MS);
    const group = this.bySecond.get(second);
    if (group) group.add(item);
    else this.bySecond.set(second, new Set([item]));
    this.secondOf.set(item, second);
    if (second < this.armedFor) this.arm(second);
  }

  delete(item: T): void {
    const second = this.secondOf.get(item);
    if (second === undefined) return;
    this.secondOf.delete(item);
    const group = this.bySecond.get(second);
    group?.delete(item);
    // The timer may stay set for a second that emptied: it then finds nothing due and sets itself again.
    if (group?.size === 0) this.bySecond.delete(second);
  }

  /** Forgets every deadline and stops the timer. */
  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.armedFor = Infinity;
    this.bySecond.clear();
    this.secondOf.clear();
  }

  private arm(second: number): void {
    clearTimeout(this.timer);
    this.armedFor = second;
    const wait = Math.min(Math.max(0, second * GRAIN_MS - Date.now()), MAX_TIMER_MS);
    this.timer = setTimeout(() => this.fire(), wait).unref();
  }

  private fire(): void {
    this.timer = undefined;
    this.armedFor = Infinity;
    const now = Date.now();
    const due: T[] = [];
    let next = Infinity;
    for (const [second, group] of this.bySecond) {
      if (second * GRAIN_MS <= now) {
        this.bySecond.delete(second);
        for (const item of group) {
          this.secondOf.delete(item);
          due.push(item);
        }
      } else if (second < next) {
        next = second;
      }
    }
    if (next !== Infinity) this.arm(next);
    for (const item of due) this.onDue(item);
  }
}
