/**
 * Spreadsheet export of the dashboard, the completed list and search results, as CSV or JSON
 * (docs/decisions/079-spreadsheet-export.md): the formats, the addresses and the messages. Imported by path
 * (never through index.ts), so only the screens' lazy chunks and the server carry it.
 */

export const EXPORT_FORMATS = ['csv', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The three lists that export, each beside its own list route. */
export const EXPORT_PATHS = {
  dashboard: '/api/projects/export',
  completed: '/api/completed-projects/export',
  search: '/api/search/export',
} as const;
export type ExportList = keyof typeof EXPORT_PATHS;

export const exportMessages = {
  formatInvalid: `Choose an export format among: ${EXPORT_FORMATS.join(', ')}.`,
} as const;

/**
 * The address a list's Export link downloads: the list's own query parameters (the dashboard's `category`,
 * `assignedTo` and `sort`; search's `q`) and the format. Empty values are left out.
 */
export function exportUrl(
  list: ExportList,
  format: ExportFormat,
  params: Record<string, string | undefined> = {},
): string {
  const search = new URLSearchParams({ format });
  for (const [name, value] of Object.entries(params)) if (value) search.set(name, value);
  return `${EXPORT_PATHS[list]}?${search.toString()}`;
}
