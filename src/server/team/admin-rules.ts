import type { Viewer } from '../core/viewer';
import { forbidden } from '../core/app-error';

/** Admin-only operations start here; the role comes with the session (dropped from cache on a role change). */
export function requireAdmin(viewer: Viewer): void {
  if (viewer.role !== 'admin') throw forbidden();
}
