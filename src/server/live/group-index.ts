import type { LiveCollection, LiveTarget } from '../../common';
import type { Change } from '../db/change-bus';
import type { ResultState } from './result-state';

interface IndexedGroup {
  target: LiveTarget;
  state: ResultState;
}

type Primitive = string | number | boolean;

const isPrimitive = (value: unknown): value is Primitive =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/** The first `field == value` clause of a query: groups are filed under it. */
function equalityClause(target: LiveTarget): { field: string; value: Primitive } | undefined {
  if (target.kind !== 'query') return undefined;
  const clause = target.where?.find((where) => where.op === '==' && isPrimitive(where.value));
  return clause ? { field: clause.field, value: clause.value as Primitive } : undefined;
}

const docKey = (collection: string, id: string) => `${collection}\u0000${id}`;
const fieldKey = (collection: string, field: string) => `${collection}\u0000${field}`;
const valueKey = (collection: string, field: string, value: Primitive) =>
  `${collection}\u0000${field}\u0000${typeof value}:${String(value)}`;

function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(value);
}

function removeFrom<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(value);
  if (set.size === 0) map.delete(key);
}

/**
 * Which live query groups a change may affect, without pairing every change with every group: a comment
 * on a project with 1,000 members publishes 1,000 notification changes while 1,000 bells are open, and a
 * million pairs are too many (docs/decisions/025-notifications.md). The answer is a superset; the hub
 * still checks each candidate exactly as before. A group is a candidate when
 * - its last result holds the changed doc, or it watches that one doc (the change may remove or edit it);
 * - the change carries its filterable fields and they equal the group's first `==` clause, or the group
 *   has no such clause, or the change lacks that field;
 * - the change carries no fields at all (every group of the collection).
 * Profile changes of users touch results of other collections (names shown in projects and comments), so
 * for them the hub looks at every group.
 */
export class GroupIndex<G extends IndexedGroup> {
  private readonly byCollection = new Map<LiveCollection, Set<G>>();
  private readonly byDoc = new Map<string, Set<G>>();
  private readonly byValue = new Map<string, Set<G>>();
  private readonly byEqualityField = new Map<string, Set<G>>();
  private readonly equalityFields = new Map<LiveCollection, Map<string, number>>();
  private readonly withoutEquality = new Map<LiveCollection, Set<G>>();

  add(group: G): void {
    const { target } = group;
    addTo(this.byCollection, target.collection, group);
    if (target.kind === 'doc') addTo(this.byDoc, docKey(target.collection, target.id), group);
    const equality = equalityClause(target);
    if (equality) {
      addTo(this.byValue, valueKey(target.collection, equality.field, equality.value), group);
      addTo(this.byEqualityField, fieldKey(target.collection, equality.field), group);
      let fields = this.equalityFields.get(target.collection);
      if (!fields) this.equalityFields.set(target.collection, (fields = new Map()));
      fields.set(equality.field, (fields.get(equality.field) ?? 0) + 1);
    } else if (target.kind === 'query') {
      addTo(this.withoutEquality, target.collection, group);
    }
    for (const id of group.state.json.keys()) addTo(this.byDoc, docKey(target.collection, id), group);
  }

  remove(group: G): void {
    const { target } = group;
    removeFrom(this.byCollection, target.collection, group);
    if (target.kind === 'doc') removeFrom(this.byDoc, docKey(target.collection, target.id), group);
    const equality = equalityClause(target);
    if (equality) {
      removeFrom(this.byValue, valueKey(target.collection, equality.field, equality.value), group);
      removeFrom(this.byEqualityField, fieldKey(target.collection, equality.field), group);
      const fields = this.equalityFields.get(target.collection);
      const count = (fields?.get(equality.field) ?? 1) - 1;
      if (count > 0) fields?.set(equality.field, count);
      else fields?.delete(equality.field);
    } else if (target.kind === 'query') {
      removeFrom(this.withoutEquality, target.collection, group);
    }
    for (const id of group.state.json.keys()) removeFrom(this.byDoc, docKey(target.collection, id), group);
  }

  /** Call when a group's result is replaced, so the docs it holds stay filed under it. */
  resultChanged(group: G, previous: ResultState, next: ResultState): void {
    const { collection } = group.target;
    for (const id of previous.json.keys()) {
      if (!next.json.has(id)) removeFrom(this.byDoc, docKey(collection, id), group);
    }
    for (const id of next.json.keys()) {
      if (!previous.json.has(id)) addTo(this.byDoc, docKey(collection, id), group);
    }
  }

  /** The groups `change` may affect, or 'all' when any group may be. */
  candidates(change: Change): Set<G> | 'all' {
    if (change.collection === 'sessions') return new Set();
    if (change.collection === 'users' && change.scope === undefined) return 'all';
    const { collection, after } = change;
    if (after === undefined) return this.byCollection.get(collection) ?? new Set();
    const found = new Set(this.byDoc.get(docKey(collection, change.id)));
    if (after === null) return found;
    for (const group of this.withoutEquality.get(collection) ?? []) found.add(group);
    for (const field of this.equalityFields.get(collection)?.keys() ?? []) {
      const value = Object.hasOwn(after, field) ? after[field] : undefined;
      const matching = isPrimitive(value)
        ? this.byValue.get(valueKey(collection, field, value))
        : this.byEqualityField.get(fieldKey(collection, field));
      for (const group of matching ?? []) found.add(group);
    }
    return found;
  }
}
