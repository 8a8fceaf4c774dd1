import { nameSearchKey, type LiveDoc, type LiveWhere } from '../../common';
import type { FilterableFields } from './change-bus';

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
    }
  });
}
