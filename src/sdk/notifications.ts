import type {
  NotificationPage,
  NotificationPreferences,
  UpdateNotificationPreferencesInput,
} from '../common';
import type { Transport } from './transport';

/**
 * The signed-in member's notifications. The unread count and the newest page are live queries
 * (`unreadNotificationsCountQuery`, `notificationsQuery`); older pages and writes go over HTTP.
 */
export class NotificationsClient {
  constructor(private readonly transport: Transport) {}

  /** Pass `nextCursor` as `cursor` for the next older page. */
  page(page: { cursor?: string | null; limit?: number } = {}): Promise<NotificationPage> {
    const query = new URLSearchParams();
    if (page.cursor) query.set('cursor', page.cursor);
    if (page.limit !== undefined) query.set('limit', String(page.limit));
    const search = query.toString();
    return this.transport.request<NotificationPage>('GET', `/api/notifications${search ? `?${search}` : ''}`);
  }

  async markRead(id: string): Promise<void> {
    await this.transport.request<void>('POST', `/api/notifications/${encodeURIComponent(id)}/read`);
  }

  async markAllRead(): Promise<void> {
    await this.transport.request<void>('POST', '/api/notifications/read-all');
  }

  preferences(): Promise<NotificationPreferences> {
    return this.transport.request<NotificationPreferences>('GET', '/api/notifications/preferences');
  }

  updatePreferences(input: UpdateNotificationPreferencesInput): Promise<NotificationPreferences> {
    return this.transport.request<NotificationPreferences>('PUT', '/api/notifications/preferences', input);
  }
}
