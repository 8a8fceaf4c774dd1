import { sql, type Kysely } from 'kysely';
import type { Database } from './schema';

/** SQL that belongs to no feature: the health check's round trip and PostgreSQL's NOTIFY. */
export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}

export async function notifyChannel(db: Kysely<Database>, channel: string, payload: string): Promise<void> {
  await sql`select pg_notify(${channel}, ${payload})`.execute(db);
}
