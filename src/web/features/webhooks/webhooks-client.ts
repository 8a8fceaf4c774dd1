import { WebhooksClient } from '../../../sdk/webhooks';
import { dojo } from '../../lib/dojo-client';

/** The admin webhook calls of this screen, on the app's own transport (session cookie). */
export const webhooksClient = new WebhooksClient(dojo.transport);
