import type { Kysely } from 'kysely';
import type { Theme } from '../../common/appearance';
import type { Database } from '../db/schema';

export async function findTheme(db: Kysely<Database>, uid: string): Promise<Theme | null> {
  const row = await db.selectFrom('users').select('theme').where('id', '=', uid).executeTakeFirst();
  return row?.theme ?? null;
}

/** Changes only `theme`: a preference, not the profile, so `updated_at` (what members see change) stays. */
export async function updateTheme(db: Kysely<Database>, uid: string, theme: Theme): Promise<boolean> {
  const result = await db.updateTable('users').set({ theme }).where('id', '=', uid).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
