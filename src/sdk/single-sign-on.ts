import type { SsoPolicy } from '../common/single-sign-on';
import type { Transport } from './transport';

/**
 * The admin's "Require single sign-on" (docs/api.md "Single sign-on"). Not part of `createDojoCoreClient`:
 * only the admin screen uses it, so it stays out of the first page's bundle; build it on a client's
 * transport, `new SingleSignOnClient(dojo.transport)`. Signing in through a provider is a browser
 * navigation to `ssoStartPath(id)` (common/single-sign-on.ts), not a call.
 */
export class SingleSignOnClient {
  constructor(private readonly transport: Transport) {}

  async policy(): Promise<SsoPolicy> {
    return (await this.transport.request<{ policy: SsoPolicy }>('GET', '/api/admin/sso-policy')).policy;
  }

  async setPolicy(policy: SsoPolicy): Promise<SsoPolicy> {
    return (await this.transport.request<{ policy: SsoPolicy }>('PUT', '/api/admin/sso-policy', policy))
      .policy;
  }
}
