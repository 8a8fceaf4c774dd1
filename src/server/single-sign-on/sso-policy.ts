import type { Kysely } from 'kysely';
import type { Role } from '../../common';
import {
  ssoMessages,
  ssoRequiredMessage,
  type SsoOptions,
  type SsoPolicy,
} from '../../common/single-sign-on';
import type { PasswordSignInGate } from '../auth/password-sign-in-gate';
import { AppError, forbidden } from '../core/app-error';
import type { Viewer } from '../core/viewer';
import type { Database } from '../db/schema';
import { findSetting, putSetting } from '../db/settings-repository';
import type { OidcProviders } from './oidc-providers';

const REQUIRED_KEY = 'sso_required';

/**
 * "Require single sign-on" (decision 062): kept in `settings`, so an admin's change holds at once on every
 * instance. It only holds while a provider is configured: removing the last one gives passwords back.
 */
export class SsoPolicyService implements PasswordSignInGate {
  constructor(private readonly deps: { db: Kysely<Database>; providers: OidcProviders }) {}

  async isRequired(): Promise<boolean> {
    if (this.deps.providers.list().length === 0) return false;
    return (await findSetting(this.deps.db, REQUIRED_KEY)) === 'true';
  }

  async options(): Promise<SsoOptions> {
    return { providers: this.deps.providers.list(), ssoRequired: await this.isRequired() };
  }

  async read(viewer: Viewer): Promise<SsoPolicy> {
    requireAdmin(viewer);
    return { required: await this.isRequired() };
  }

  async update(viewer: Viewer, policy: SsoPolicy): Promise<SsoPolicy> {
    requireAdmin(viewer);
    if (policy.required && this.deps.providers.list().length === 0) {
      throw new AppError('conflict', ssoMessages.noProvider);
    }
    await putSetting(this.deps.db, REQUIRED_KEY, String(policy.required));
    return { required: policy.required };
  }

  /** Admins keep their password, so that a provider outage never locks the team out. */
  async check(role: Role | null): Promise<void> {
    if (role === 'admin' || !(await this.isRequired())) return;
    throw forbidden(ssoRequiredMessage(this.deps.providers.list().map((provider) => provider.name)));
  }
}

function requireAdmin(viewer: Viewer): void {
  if (viewer.role !== 'admin') throw forbidden();
}
