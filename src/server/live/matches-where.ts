import { messages, nameSearchKey, type LiveDoc, type LiveQuery, type LiveWhere } from '../../common';
import { invalidArgument } from '../core/app-error';
import type { FilterableFields } from '../db/change-bus';

/** Whether a document satisfies a query's filters (ignoring order and limit). */
export function matchesWhere(doc: LiveDoc | FilterableFields, where: LiveWhere[] | undefined): boolean {
  return (where ?? []).every((clause) => {
    const value = doc[clause.field];
    switch (clause.op) {
      case '==':
        return value === clause.value;
      case 'array-contains':
        return Array.isArray(value) && value.includes(clause.value);
      case 'contains-text':
        return (
          typeof value === 'string' && nameSearchKey(value).includes(nameSearchKey(String(clause.value)))
        );
      // Days written YYYY-MM-DD sort as text in their order, in JS as in both databases.
      case '>=':
        return typeof value === 'string' && value >= String(clause.value);
      case '<':
        return typeof value === 'string' && value < String(clause.value);
    }
  });
}

/**
 * Whether a document may lie within a query's keyset bounds (`startAfter`, `endAt` on the orderBy field,
 * ties broken by id). A document whose order value equals a bound's counts as inside: the database breaks
 * that tie by id under its own collation, and re-evaluating a query that did not change costs only a read.
 */
export function mayBeInRange(
  doc: LiveDoc | FilterableFields,
  query: Pick<LiveQuery, 'orderBy' | 'startAfter' | 'endAt'>,
): boolean {
  if (!query.startAfter && !query.endAt) return true;
  const field = query.orderBy?.field;
  const value = field === undefined ? undefined : doc[field];
  if (typeof value !== 'string') return true;
  const descending = query.orderBy?.direction === 'desc';
  // Strictly before the bound in the query's order: negative; after it: positive; same value: 0.
  const compare = (bound: string) => (value === bound ? 0 : value < bound !== descending ? -1 : 1);
  if (query.startAfter && compare(query.startAfter[0]) < 0) return false;
  if (query.endAt && compare(query.endAt[0]) > 0) return false;
  return true;
}

/** The order field a query's keyset bounds compare, when it has any: a change must carry it to be judged. */
export const rangeField = (query: Pick<LiveQuery, 'orderBy' | 'startAfter' | 'endAt'>): string | undefined =>
  query.startAfter || query.endAt ? query.orderBy?.field : undefined;

/** Keyset bounds are for project lists; anywhere else they would be silently ignored, so they are a 400. */
export function refuseCursors(query: LiveQuery, what: string): void {
  if (query.startAfter || query.endAt) {
    throw invalidArgument({ startAfter: `${what} are not read by cursor.` }, messages.badRequest);
  }
}
