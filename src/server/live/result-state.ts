import type { LiveChange, LiveDoc } from '../../common';

/** A result as sent: ids in order, and each doc's JSON to tell modified from unchanged. */
export interface ResultState {
  order: string[];
  json: Map<string, string>;
  /** The docs as one JSON array, built once for every snapshot served from this state. */
  docsJson?: string;
}

export const snapshotMessage = (id: string, state: ResultState): string => {
  state.docsJson ??= `[${state.order.map((docId) => state.json.get(docId)).join(',')}]`;
  return `{"type":"snapshot","id":${JSON.stringify(id)},"docs":${state.docsJson}}`;
};

export const resultStateOf = (docs: LiveDoc[], json: string[]): ResultState => ({
  order: docs.map((doc) => doc.id),
  json: new Map(docs.map((doc, index) => [doc.id, json[index] ?? ''])),
});

/** The changes that turn `previous` into `docs`, in the protocol's form. */
export function diffOf(previous: ResultState, docs: LiveDoc[], json: string[]): LiveChange[] {
  const changes: LiveChange[] = [];
  const nextIds = new Set(docs.map((doc) => doc.id));
  for (const id of previous.order) {
    if (!nextIds.has(id)) changes.push({ type: 'removed', doc: { id } });
  }
  docs.forEach((doc, index) => {
    const before = previous.json.get(doc.id);
    if (before === undefined) changes.push({ type: 'added', doc, newIndex: index });
    else if (before !== json[index]) changes.push({ type: 'modified', doc, newIndex: index });
  });
  return changes;
}

/** A `changes` message around an already serialized change list (same shape as `send` would produce). */
export const changesMessage = (id: string, changesJson: string): string =>
  `{"type":"changes","id":${JSON.stringify(id)},"changes":${changesJson}}`;
