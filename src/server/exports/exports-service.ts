import type { Kysely } from 'kysely';
import type { Readable } from 'node:stream';
import { SEARCH_LIMIT_MAX } from '../../common';
import type { ExportFormat, ExportList } from '../../common/exports';
import type { Viewer } from '../core/viewer';
import type { Database, DialectName } from '../db/schema';
import type { ProjectKey, ProjectQuery } from '../projects/projects-repository';
import type { ProjectsService } from '../projects/projects-service';
import type { SearchService } from '../search/search-service';
import { exportStream } from './export-writers';
import {
  readCompletedExportPage,
  readExportRowsByIds,
  readOpenExportPage,
  type ExportRow,
} from './exports-repository';

/** Rows read per query: a page in memory at a time, whatever the list's length. */
const EXPORT_PAGE_ROWS = 500;

/** What to export: one of the three lists, with that list's own query. */
export type ExportSource =
  | { list: 'dashboard'; query: Omit<ProjectQuery, 'limit' | 'startAfter' | 'endAt' | 'completed'> }
  | { list: 'completed' }
  | { list: 'search'; q: string };

/**
 * Spreadsheet export (docs/decisions/079-spreadsheet-export.md): a list, every project of it, as CSV or
 * JSON, streamed a page at a time. It reads with the lists' own read rule (`ProjectsService.authorizeRead`,
 * the search's own) before the first byte, so an export never shows what the list would not.
 */
export class ExportsService {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      dialect: DialectName;
      projects: ProjectsService;
      search: SearchService;
    },
  ) {}

  async export(
    viewer: Viewer,
    source: ExportSource,
    format: ExportFormat,
    options: { origin: string; locale: string },
  ): Promise<{ stream: Readable; fileName: string }> {
    this.deps.projects.authorizeRead(viewer);
    const rows =
      source.list === 'search'
        ? await this.searchRows(viewer, source.q)
        : source.list === 'completed'
          ? this.completedRows()
          : this.dashboardRows(source.query);
    const stream = await exportStream(rows, format, options);
    return { stream, fileName: exportFileName(source.list, format) };
  }

  private async *dashboardRows(query: Omit<ProjectQuery, 'limit'>): AsyncGenerator<ExportRow> {
    const { db, dialect } = this.deps;
    const column = query.orderBy.column;
    let startAfter: ProjectKey | undefined;
    for (;;) {
      const page = await readOpenExportPage(db, dialect, { ...query, startAfter, limit: EXPORT_PAGE_ROWS });
      yield* page;
      const last = page.at(-1);
      if (!last || page.length < EXPORT_PAGE_ROWS) return;
      startAfter = [
        column === 'due_date' ? last.dueDate : column === 'name' ? last.name : last.createdAt,
        last.id,
      ];
    }
  }

  private async *completedRows(): AsyncGenerator<ExportRow> {
    const { db, dialect } = this.deps;
    let after: ProjectKey | undefined;
    for (;;) {
      const page = await readCompletedExportPage(db, dialect, { after, limit: EXPORT_PAGE_ROWS });
      yield* page;
      const last = page.at(-1);
      if (!last?.completedAt || page.length < EXPORT_PAGE_ROWS) return;
      after = [last.completedAt, last.id];
    }
  }

  /** The search's results (at most SEARCH_LIMIT_MAX, as the results page can show), in their order. */
  private async searchRows(viewer: Viewer, q: string): Promise<AsyncIterable<ExportRow>> {
    const results = await this.deps.search.search(viewer, { q, limit: SEARCH_LIMIT_MAX });
    const rows = await readExportRowsByIds(
      this.deps.db,
      this.deps.dialect,
      results.map((result) => result.id),
    );
    return (async function* () {
      yield* rows;
    })();
  }
}

/** `dojo-dashboard-2026-11-28.csv`: the list and the day, so several exports sort by date. */
function exportFileName(list: ExportList, format: ExportFormat): string {
  return `dojo-${list}-${new Date().toISOString().slice(0, 10)}.${format}`;
}
