import { sha256, tableData } from '../../src/server/backup/archive';
import type { TableRow } from '../../src/server/backup/backup-repository';

/** What an upgrade fixture held when it was made (scripts/make-upgrade-fixture.ts). */
export interface UpgradeExpectation {
  version: string;
  schemaVersion: string;
  email: string;
  password: string;
  tables: Record<string, { columns: string[]; rowSha256: string[] }>;
  /** sha256 → size of every stored file. */
  files: Record<string, number>;
}

/**
 * The sha256 of each row's canonical line (the archive's), sorted; with `columns`, of the row cut down
 * to them, so columns that later migrations add do not count.
 */
export function canonicalRowHashes(rows: TableRow[], columns: string[] | undefined): string[] {
  return rows
    .map((row) => {
      const kept = columns ? Object.fromEntries(columns.map((column) => [column, row[column] ?? null])) : row;
      return sha256(tableData([kept]));
    })
    .sort();
}
