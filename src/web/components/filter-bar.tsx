import { DASHBOARD_FILTERS, type DashboardFilter } from '../../common';
import './filter-bar.css';

export interface FilterBarProps {
  current: DashboardFilter;
  onChange: (filter: DashboardFilter) => void;
}

/** The dashboard's filter buttons (docs/product-spec.md#23-dashboard); the pressed state is announced, not only coloured. */
export function FilterBar({ current, onChange }: FilterBarProps) {
  return (
    <div className="filter-bar">
      <p className="filter-bar-label">Filter by:</p>
      <div className="filter-bar-buttons" role="group" aria-label="Filter projects">
        {DASHBOARD_FILTERS.map((filter) => (
          <button
            key={filter}
            type="button"
            className={filter === current ? 'filter-button active' : 'filter-button'}
            aria-pressed={filter === current}
            onClick={() => onChange(filter)}
          >
            {filter}
          </button>
        ))}
      </div>
    </div>
  );
}
