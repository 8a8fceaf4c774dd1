import { messages, type LiveQuery } from '../../common';
import { invalidArgument } from '../core/app-error';
import type { LiveSource } from '../live/live-sources';
import { refuseCursors } from '../live/matches-where';
import type { AttachmentsService } from './attachments-service';

/** The one attachments query there is: one project's, newest first, all of them (a project keeps few). */
function attachmentsQueryOf(query: LiveQuery): string {
  refuseCursors(query, 'Attachments');
  const [clause, ...rest] = query.where ?? [];
  if (!clause || rest.length > 0 || clause.field !== 'projectId' || clause.op !== '==') {
    throw invalidArgument({ where: 'Attachments are read by projectId (==).' }, messages.badRequest);
  }
  if (query.orderBy && (query.orderBy.field !== 'createdAt' || query.orderBy.direction !== 'desc')) {
    throw invalidArgument(
      { orderBy: 'Attachments are read newest first (createdAt desc).' },
      messages.badRequest,
    );
  }
  return String(clause.value);
}

/**
 * Live reads of a project's attachments (docs/decisions/073-attachments.md). Every viewer is authorized by
 * the same read rule as the HTTP list (decision 042), and all of them see the same list.
 */
export const attachmentsLiveSource = (attachments: AttachmentsService): LiveSource => ({
  authorize: (target, viewer) => {
    attachments.authorizeRead(viewer);
    if (target.kind === 'query') attachmentsQueryOf(target);
  },
  resultsBelongTo: 'everyone',
  query: (query) => attachments.listForLive(attachmentsQueryOf(query)),
  find: (id) => attachments.find(id),
});
