import type { ReactNode, Ref } from 'react';

interface AdminTableProps {
  /** Names the caption (`<id>-caption`), which names the scrolling region. */
  id: string;
  caption: string;
  columns: readonly string[];
  bodyRef?: Ref<HTMLTableSectionElement>;
  /** The rows. */
  children: ReactNode;
}

/**
 * An admin list as a table, in a region that scrolls sideways on a narrow screen: focusable, so that the
 * keyboard can scroll it, and named by the table's caption. The roles are explicit because a narrow table
 * is laid out as cards (`display: block`), which would otherwise drop its table semantics; rows use
 * `role="row"`, `"rowheader"` and `"cell"` for the same reason.
 */
export function AdminTable({ id, caption, columns, bodyRef, children }: AdminTableProps) {
  const captionId = `${id}-caption`;
  return (
    <div className="table-scroll" role="region" aria-labelledby={captionId} tabIndex={0}>
      <table className="admin-table" role="table">
        <caption id={captionId}>{caption}</caption>
        <thead role="rowgroup">
          <tr role="row">
            {columns.map((column) => (
              <th key={column} scope="col" role="columnheader">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody ref={bodyRef} role="rowgroup">
          {children}
        </tbody>
      </table>
    </div>
  );
}
