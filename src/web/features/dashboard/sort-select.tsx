import { DASHBOARD_SORTS, type DashboardSort } from '../../../common';

const LABELS: Record<DashboardSort, string> = { newest: 'Newest first', dueDate: 'Due date, soonest first' };

export interface SortSelectProps {
  current: DashboardSort;
  onChange: (sort: DashboardSort) => void;
}

/** The list's order, beside the spec's filter bar (which stays exactly as it is). */
export function SortSelect({ current, onChange }: SortSelectProps) {
  return (
    <div className="sort-select">
      <label htmlFor="dashboard-sort">Sort by:</label>
      <select
        id="dashboard-sort"
        value={current}
        onChange={(event) => onChange(event.target.value as DashboardSort)}
      >
        {DASHBOARD_SORTS.map((sort) => (
          <option key={sort} value={sort}>
            {LABELS[sort]}
          </option>
        ))}
      </select>
    </div>
  );
}
