/**
 * A page read with one row more than asked for: that extra row tells whether another page follows, without
 * a count. `cursorOf` makes the next page's cursor from the page's last item.
 */
export function pageFromExtraRow<T, C>(
  rows: readonly T[],
  limit: number,
  cursorOf: (last: T) => C | undefined,
): { items: T[]; next: C | null } {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  const next = rows.length > limit && last !== undefined ? cursorOf(last) : undefined;
  return { items, next: next ?? null };
}
