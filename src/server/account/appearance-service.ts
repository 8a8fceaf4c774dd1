import type { Kysely } from 'kysely';
import type { Appearance } from '../../common/appearance';
import { notFound } from '../core/app-error';
import type { Viewer } from '../core/viewer';
import type { Database } from '../db/schema';
import { findTheme, updateTheme } from './appearance-repository';

/** The signed-in member's look of the app (docs/decisions/069-dark-theme-and-room-to-work.md). */
export class AppearanceService {
  constructor(private readonly deps: { db: Kysely<Database> }) {}

  async get(viewer: Viewer): Promise<Appearance> {
    const theme = await findTheme(this.deps.db, viewer.uid);
    if (theme === null) throw notFound();
    return { theme };
  }

  async set(viewer: Viewer, appearance: Appearance): Promise<Appearance> {
    if (!(await updateTheme(this.deps.db, viewer.uid, appearance.theme))) throw notFound();
    return { theme: appearance.theme };
  }
}
