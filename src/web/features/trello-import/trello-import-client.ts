import { TrelloImportClient } from '../../../sdk/trello-import';
import { dojo } from '../../lib/dojo-client';

/** The admin import calls of this screen, on the app's own transport (session cookie). */
export const trelloImportClient = new TrelloImportClient(dojo.transport);
