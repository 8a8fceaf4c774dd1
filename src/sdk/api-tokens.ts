import type { ApiToken, CreateApiTokenInput, CreatedApiToken } from '../common/api-tokens';
import type { Transport } from './transport';

/**
 * The signed-in member's personal API tokens (docs/api.md "API tokens"). Not part of `createDojoCoreClient`:
 * only the settings screen uses it, so it stays out of the first page's bundle; build it on a client's
 * transport, `new ApiTokensClient(dojo.transport)`.
 */
export class ApiTokensClient {
  constructor(private readonly transport: Transport) {}

  async list(): Promise<ApiToken[]> {
    return (await this.transport.request<{ tokens: ApiToken[] }>('GET', '/api/account/api-tokens')).tokens;
  }

  /** The new token and its secret: the secret is shown this once, and stored nowhere. */
  create(input: CreateApiTokenInput): Promise<CreatedApiToken> {
    return this.transport.request<CreatedApiToken>('POST', '/api/account/api-tokens', input);
  }

  /** Stops the token at once, everywhere. */
  async revoke(id: string): Promise<void> {
    await this.transport.request<void>('DELETE', `/api/account/api-tokens/${encodeURIComponent(id)}`);
  }
}
