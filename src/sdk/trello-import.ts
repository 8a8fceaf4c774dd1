import {
  TRELLO_IMPORT_PATHS,
  type ImportJob,
  type TrelloImportPreview,
  type TrelloImportRequest,
} from '../common/trello-import';
import type { Transport } from './transport';

/**
 * Import from Trello, for admins (docs/trello-import.md). Not part of `createDojoCoreClient`: only the
 * admin import screen uses it, so it stays out of the first page's bundle; build it on a client's
 * transport, `new TrelloImportClient(dojo.transport)`.
 */
export class TrelloImportClient {
  constructor(private readonly transport: Transport) {}

  /** What the board would become with these choices, and what cannot be mapped; writes nothing. */
  async preview(request: TrelloImportRequest): Promise<TrelloImportPreview> {
    return (
      await this.transport.request<{ preview: TrelloImportPreview }>(
        'POST',
        TRELLO_IMPORT_PATHS.preview,
        request,
      )
    ).preview;
  }

  /** Queues the import (202): follow it with `job(id)`. */
  async start(request: TrelloImportRequest): Promise<ImportJob> {
    return (await this.transport.request<{ import: ImportJob }>('POST', TRELLO_IMPORT_PATHS.start, request))
      .import;
  }

  /** An import's status and progress. */
  async job(id: string): Promise<ImportJob> {
    const path = `/api/admin/imports/${encodeURIComponent(id)}`;
    return (await this.transport.request<{ import: ImportJob }>('GET', path)).import;
  }
}
