import { EXPORT_FORMATS, exportUrl, type ExportList } from '../../common/exports';
import './export-links.css';

const FORMAT_LABELS = { csv: 'CSV', json: 'JSON' } as const;

/**
 * 'Export: CSV, JSON' for a list: plain links the browser downloads (the session cookie goes with them),
 * each naming the list's current query, so the file holds what the list shows, every page of it
 * (docs/decisions/079-spreadsheet-export.md). Links, not a script: no code to load, and the browser shows
 * the download's progress itself.
 */
export function ExportLinks(props: {
  list: ExportList;
  /** The list's query parameters (e.g. `category`, `assignedTo`, `sort`); empty ones are left out. */
  params?: Record<string, string | undefined>;
  /** What the list is, for the links' accessible names: 'Export the dashboard as CSV'. */
  what: string;
}) {
  const { list, params, what } = props;
  return (
    <div className="export-links" role="group" aria-label={`Export ${what}`}>
      <span className="export-links-label" aria-hidden="true">
        Export:
      </span>
      {EXPORT_FORMATS.map((format) => (
        <a
          key={format}
          className="btn export-link"
          href={exportUrl(list, format, params)}
          download
          aria-label={`Export ${what} as ${FORMAT_LABELS[format]}`}
        >
          {FORMAT_LABELS[format]}
        </a>
      ))}
    </div>
  );
}
