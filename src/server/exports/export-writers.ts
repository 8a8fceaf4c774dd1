import { Readable, pipeline } from 'node:stream';
import { projectPath } from '../../common/client-routes';
import type { ExportFormat } from '../../common/exports';
import type { ExportRow } from './exports-repository';

/** The columns, in order, with their CSV headings (docs/api.md#spreadsheet-export). */
const CSV_HEADINGS = [
  'Name',
  'Category',
  'Due date',
  'Assignees',
  'Creator',
  'Created',
  'Completed',
  'Comments',
  'Link',
] as const;

/**
 * A cell a spreadsheet would read as a formula (`=`, `+`, `-`, `@`, or a tab or carriage return before
 * one) gets a leading apostrophe, which spreadsheets show as text and do not compute: OWASP's advice
 * against CSV injection (docs/decisions/079-spreadsheet-export.md). Only the CSV needs it: JSON is data.
 */
export function neutralizeFormula(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

/**
 * Dates as the member's locale writes them (as the web client's `toLocaleDateString` does), read as UTC
 * days: a due date is a calendar day, and created and completed are shown by their UTC day.
 */
export function localeDateFormatter(locale: string): (iso: string | null) => string {
  const format = new Intl.DateTimeFormat(locale, { timeZone: 'UTC' });
  return (iso) => {
    if (iso === null || iso === '') return '';
    const date = new Date(iso.length === 10 ? `${iso}T00:00:00.000Z` : iso);
    return Number.isNaN(date.getTime()) ? '' : format.format(date);
  };
}

/**
 * The locale of the request's Accept-Language (its first tag this runtime knows, quality order ignored
 * beyond the order written, as browsers send them best first); en-US without one.
 */
export function localeOfRequest(acceptLanguage: string | undefined): string {
  for (const part of (acceptLanguage ?? '').split(',')) {
    const tag = part.split(';')[0]?.trim() ?? '';
    if (tag === '' || tag === '*' || tag.length > 35) continue;
    try {
      const [supported] = Intl.DateTimeFormat.supportedLocalesOf([tag]);
      if (supported) return supported;
    } catch {
      // not a well-formed tag: try the next
    }
  }
  return 'en-US';
}

/**
 * The export as a byte stream that reads the rows only as fast as the client takes them: `Readable.from`
 * asks the generator for the next row only when its buffer drains, and `pipeline` passes backpressure from
 * the socket back to it, so a page is read from the database only when the last one is nearly sent.
 */
export async function exportStream(
  rows: AsyncIterable<ExportRow>,
  format: ExportFormat,
  /** `origin`: PUBLIC_URL's, or the request's; a completed project's page shows it as completed. */
  options: { origin: string; locale: string },
): Promise<Readable> {
  const link = (row: ExportRow) => new URL(projectPath(row.id), options.origin).href;
  if (format === 'json') return Readable.from(jsonChunks(rows, link));
  // csv-stringify is loaded at the first CSV export, not at start: idle memory stays as it was.
  const { stringify } = await import('csv-stringify');
  const date = localeDateFormatter(options.locale);
  const text = (value: string) => neutralizeFormula(value);
  async function* records(): AsyncGenerator<string[]> {
    yield [...CSV_HEADINGS];
    for await (const row of rows) {
      yield [
        text(row.name),
        text(row.category),
        date(row.dueDate),
        text(row.assignees.join(', ')),
        text(row.creator),
        date(row.createdAt),
        date(row.completedAt),
        String(row.commentCount),
        link(row),
      ];
    }
  }
  // RFC 4180: CRLF between records, fields quoted when they hold a comma, quote or line break, and the
  // neutralized ones quoted too (OWASP). A byte order mark so Excel reads UTF-8 (decision 079).
  const stringifier = stringify({
    bom: true,
    record_delimiter: 'windows',
    quoted_match: /^'[=+\-@\t\r]/,
  });
  return pipeline(Readable.from(records()), stringifier, () => {
    // An error (the client went away, the database failed) destroys both streams; the reply ends with them.
  });
}

async function* jsonChunks(
  rows: AsyncIterable<ExportRow>,
  link: (row: ExportRow) => string,
): AsyncGenerator<string> {
  yield '{"projects":[';
  let first = true;
  for await (const row of rows) {
    const project = {
      id: row.id,
      name: row.name,
      category: row.category,
      dueDate: row.dueDate,
      assignees: row.assignees,
      creator: row.creator,
      createdAt: row.createdAt,
      completedAt: row.completedAt,
      commentCount: row.commentCount,
      link: link(row),
    };
    yield `${first ? '' : ','}${JSON.stringify(project)}`;
    first = false;
  }
  yield ']}';
}
