import { TrelloImportClient } from '../../src/sdk/trello-import';
import type { SignedInClient } from './clients';

/** The admin's Trello import client on a member's transport (server tests may not import the SDK). */
export const trelloImportsOf = (member: SignedInClient): TrelloImportClient =>
  new TrelloImportClient(member.client.transport);
