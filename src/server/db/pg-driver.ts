import type pg from 'pg';

type PgModule = typeof pg;

const PG_INT8_OID = 20;

/**
 * node-postgres, imported on first use. Nothing may import `pg` statically: the driver, and node's fetch
 * implementation that it touches while it loads, would then sit in every SQLite server's memory
 * (docs/decisions/028-idle-footprint-and-fan-out.md, 039-no-driver-at-start.md).
 */
export async function loadPg(): Promise<PgModule> {
  return (await import('pg')).default;
}

/** Type parsers that read bigint columns (sizes, counts) as numbers: every value we keep fits in a double. */
export function numericInt8Types(driver: PgModule): { getTypeParser: PgModule['types']['getTypeParser'] } {
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === PG_INT8_OID
        ? Number
        : driver.types.getTypeParser(oid, format)) as PgModule['types']['getTypeParser'],
  };
}
