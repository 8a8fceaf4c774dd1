import { createDojoCoreClient } from '../../sdk';

/**
 * The one SDK client of the app. A module-level singleton so that the auth state, the live socket
 * and its subscriptions are shared by every screen (one WebSocket per tab). The app uploads nothing
 * through the storage service, so its client leaves it out.
 */
export const dojo = createDojoCoreClient();
