import { messages } from '../../common';
import { forbidden } from '../core/app-error';
import type { Viewer } from '../core/viewer';

/**
 * The one read rule of notifications, for `GET /api/notifications` and the `notifications` live source
 * alike (docs/decisions/049-server-folder-layers-and-one-read-rule.md): a member reads only their own,
 * admins included. It answers whose notifications to read: the viewer's, which is what `requested`
 * must name when a live query names one; anyone else's is a 403.
 */
export function notificationsReadableBy(viewer: Viewer, requested: string = viewer.uid): string {
  if (requested !== viewer.uid) throw forbidden(messages.notificationsOnlyYours);
  return requested;
}
