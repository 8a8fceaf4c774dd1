import type { WebhookEvent } from '../../common/webhooks';
import type { OutgoingEvent } from '../db/unit-of-work';

/** Who did it, as a delivery names them; null for the server itself. */
interface EventActor {
  uid: string;
  displayName: string;
}

/** A project as a delivery tells of it: the fields a receiver needs to act, nothing private. */
interface EventProject {
  id: string;
  name?: string;
  details?: string;
  dueDate?: string;
  category?: string;
  assignedUserIds?: readonly string[];
  createdBy?: string;
}

/**
 * One webhook event, declared on the write that causes it (`write.emit(...)`): the unit of work writes its
 * deliveries in that write's transaction (docs/decisions/077-webhook-delivery-guarantees.md).
 */
export function webhookEvent(
  type: WebhookEvent,
  actor: EventActor | null,
  data: { project?: EventProject; comment?: Record<string, unknown>; member?: Record<string, unknown> },
): OutgoingEvent {
  return {
    type,
    projectId: data.project?.id ?? null,
    payload: {
      event: type,
      occurredAt: new Date().toISOString(),
      actor: actor && { id: actor.uid, displayName: actor.displayName },
      data,
    },
  };
}

/** A new account: by signup with a password or through single sign-on. */
export const memberJoined = (member: {
  id: string;
  displayName: string;
  role: string;
  via: 'password' | 'single-sign-on';
}): OutgoingEvent =>
  webhookEvent('member.joined', { uid: member.id, displayName: member.displayName }, { member });
