import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { DISPLAY_NAME_MAX_LENGTH, type AuthUser, type Role } from '../../common';
import type { AuthService, SignedIn } from '../auth/auth-service';
import type { Admission, SignupGate } from '../auth/signup-gate';
import type { OidcProviderConfig } from '../config/single-sign-on-config';
import { AppError } from '../core/app-error';
import { newId, newSecretToken } from '../core/ids';
import type { Logger } from '../core/logger';
import { nowIso } from '../core/time';
import { isUniqueViolation } from '../db/database';
import type { Database } from '../db/schema';
import type { UnitOfWork } from '../db/unit-of-work';
import type { ProfileThumbnails, StagedThumbnail } from '../users/profile-thumbnails';
import {
  claimOwnership,
  countActiveAdmins,
  findUserByEmailKey,
  findUserById,
  insertUser,
  isDisplayNameTaken,
  lockAdminChanges,
  setUserRole,
  type UserRow,
} from '../users/users-repository';
import {
  deleteIdentity,
  findIdentityUser,
  insertIdentity,
  touchIdentity,
} from './external-identities-repository';
import {
  deleteExpiredOidcFlows,
  insertOidcFlow,
  takeOidcFlow,
  type OidcFlowData,
} from './oidc-flows-repository';
import { SsoFailure, type OidcProviders, type ProviderClaims } from './oidc-providers';
import { memberJoined } from '../webhooks/webhook-events';
import { fetchProviderPicture } from './provider-picture';

/** A sign-in at the provider must come back within this (decision 062: sign-ins in progress live 10 minutes). */
export const OIDC_FLOW_TTL_MS = 10 * 60 * 1000;
/** Display names tried with " (2)", " (3)"… before giving up. */
const MAX_NAME_SUFFIX = 50;

const hashFlowId = (flowId: string): string =>
  createHash('sha256').update(`oidc:${flowId}`).digest('base64url');

interface Deps {
  db: Kysely<Database>;
  writes: UnitOfWork;
  auth: AuthService;
  providers: OidcProviders;
  signupGate: SignupGate;
  thumbnails: ProfileThumbnails;
  log: Logger;
  /** The operator's OUTBOUND_ALLOW_PRIVATE: whether a provider's picture may be fetched from a private address. */
  outboundAllowPrivate: boolean;
}

/**
 * Sign-in through an OpenID Connect provider (docs/decisions/062-identity-and-account-linking.md): the
 * redirect out with state, nonce and PKCE kept in `sign_in_flows`, and the way back, which links the
 * provider's identity to an account (or makes one under the signup policy) and ends in
 * `AuthService.startSession`. Every refusal is an `SsoFailure` and writes nothing.
 */
export class SingleSignOnService {
  constructor(private readonly deps: Deps) {}

  /** The provider's authorization URL, and the flow id the browser keeps (in a cookie) for the callback. */
  async start(
    providerId: string,
    carry: { invitation?: string | undefined; setup?: string | undefined },
  ): Promise<{ flowId: string; url: string }> {
    const provider = this.requireProvider(providerId);
    const request = await this.deps.providers.authorizationRequest(provider);
    const flowId = newSecretToken();
    const now = new Date();
    await deleteExpiredOidcFlows(this.deps.db, now.toISOString());
    await insertOidcFlow(this.deps.db, {
      idHash: hashFlowId(flowId),
      data: {
        provider: provider.id,
        state: request.state,
        nonce: request.nonce,
        codeVerifier: request.codeVerifier,
        invitation: carry.invitation ?? null,
        setup: carry.setup ?? null,
      },
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + OIDC_FLOW_TTL_MS).toISOString(),
    });
    return { flowId, url: request.url };
  }

  /**
   * The provider sent the browser back: the flow is used up first (so a replay finds nothing), then
   * openid-client checks the answer, then the identity is linked and the session starts.
   */
  async finish(
    providerId: string,
    flowId: string | undefined,
    callbackQuery: URLSearchParams,
    userAgent: string,
  ): Promise<SignedIn> {
    const provider = this.requireProvider(providerId);
    const flow = flowId ? await takeOidcFlow(this.deps.db, hashFlowId(flowId), nowIso()) : null;
    if (!flow || flow.provider !== provider.id)
      throw new SsoFailure('expired', 'no such sign-in in progress');
    const claims = await this.deps.providers.complete(provider, callbackQuery, flow);
    const user = await this.accountFor(provider, claims, flow);
    return this.deps.auth.startSession(user, userAgent);
  }

  private requireProvider(providerId: string): OidcProviderConfig {
    const provider = this.deps.providers.find(providerId);
    if (!provider) throw new SsoFailure('unknown-provider', `no provider '${providerId}'`);
    return provider;
  }

  /** Decision 062's four cases, in order: known identity, verified email of an account, refusal, new account. */
  private async accountFor(
    provider: OidcProviderConfig,
    claims: ProviderClaims,
    flow: OidcFlowData,
  ): Promise<AuthUser> {
    const { db } = this.deps;
    const email = typeof claims.email === 'string' && claims.email.trim() ? claims.email.trim() : null;
    // Some providers send the boolean as a string.
    const verified = claims.email_verified === true || claims.email_verified === 'true';
    const identity = { provider: provider.id, subject: claims.sub, email };

    const linkedId = await findIdentityUser(db, provider.id, claims.sub);
    const linked = linkedId ? await findUserById(db, linkedId) : null;
    if (linked?.status === 'deleted') {
      // Its owner deleted that account: this sign-in is treated as a first one.
      await deleteIdentity(db, provider.id, claims.sub);
    } else if (linkedId) {
      const user = requireActive(linked);
      await touchIdentity(db, { ...identity, now: nowIso() });
      return this.withRoleFromGroups(provider, claims, user);
    }
    if (!email) throw new SsoFailure('email-missing');
    const existing = await findUserByEmailKey(db, email.toLowerCase());
    if (existing) {
      if (!verified) throw new SsoFailure('email-unverified', `unverified ${email} for an existing account`);
      const user = requireActive(existing);
      try {
        await insertIdentity(db, { ...identity, userId: user.id, now: nowIso() });
      } catch (error) {
        // The same identity's two callbacks at once: the other linked it; both sign in to the same account.
        if (!isUniqueViolation(error)) throw error;
      }
      return this.withRoleFromGroups(provider, claims, user);
    }
    return this.createAccount(provider, claims, { email, verified, flow });
  }

  private async createAccount(
    provider: OidcProviderConfig,
    claims: ProviderClaims,
    { email, verified, flow }: { email: string; verified: boolean; flow: OidcFlowData },
  ): Promise<AuthUser> {
    const { signupGate, thumbnails, writes } = this.deps;
    const admission = await admit(signupGate, email, flow);
    // An invitation sent to one address admits only who proves to own it.
    if (admission.invitationForEmail && !verified)
      throw new SsoFailure('invitation-invalid', 'unverified email');
    const displayName = await this.freeDisplayName(claims, email);
    const uid = newId();
    // Loaded when first drawn: node:zlib is not otherwise part of an idle server.
    const picture =
      (await fetchProviderPicture(claims.picture, this.deps.outboundAllowPrivate)) ??
      (await import('./generated-avatar')).generatedAvatarPng(uid);
    let staged: StagedThumbnail | undefined;
    try {
      staged = await thumbnails.stage(uid, { bytes: picture, fileName: 'avatar.png' }, false);
      const stagedPicture = staged;
      const inAdminGroup =
        provider.adminGroup !== undefined && groupsOf(provider, claims).includes(provider.adminGroup);
      return await writes.run(async (trx, write) => {
        await signupGate.consume(trx, admission);
        const photoURL = await thumbnails.record(trx, uid, stagedPicture);
        const owner = await claimOwnership(trx, uid);
        const role: Role = owner || inAdminGroup ? 'admin' : 'member';
        const now = nowIso();
        // No password: it signs in through the provider until its owner sets one with a reset link.
        await insertUser(trx, {
          id: uid,
          email,
          emailKey: email.toLowerCase(),
          passwordHash: '',
          displayName,
          photoURL,
          role,
          now,
        });
        await insertIdentity(trx, { provider: provider.id, subject: claims.sub, userId: uid, email, now });
        write
          .changed({ collection: 'users', id: uid })
          .emit(memberJoined({ id: uid, displayName, role, via: 'single-sign-on' }));
        return { uid, email, displayName, photoURL, role };
      });
    } catch (error) {
      await thumbnails.discard(staged);
      if (error instanceof AppError)
        throw new SsoFailure(flow.invitation ? 'invitation-invalid' : 'signup-refused', error.message);
      if (isUniqueViolation(error))
        throw new SsoFailure('failed', 'a signup raced for the same email or name');
      throw error;
    }
  }

  /** `name`, else `preferred_username`, else the email's local part; made unique with " (2)", " (3)"… */
  private async freeDisplayName(claims: ProviderClaims, email: string): Promise<string> {
    const given = [claims.name, claims.preferred_username, email.slice(0, email.indexOf('@'))]
      .map((value) => (typeof value === 'string' ? value.trim().replace(/\s+/g, ' ') : ''))
      .find(Boolean);
    const base = (given ?? 'Member').slice(0, DISPLAY_NAME_MAX_LENGTH);
    for (let attempt = 1; attempt <= MAX_NAME_SUFFIX; attempt += 1) {
      const suffix = attempt === 1 ? '' : ` (${attempt})`;
      const candidate = `${base.slice(0, DISPLAY_NAME_MAX_LENGTH - suffix.length).trimEnd()}${suffix}`;
      if (!(await isDisplayNameTaken(this.deps.db, candidate, null))) return candidate;
    }
    return `${base.slice(0, DISPLAY_NAME_MAX_LENGTH - 9)} ${newId().slice(0, 8)}`;
  }

  /**
   * With an admin group configured, each sign-in sets the role from the groups claim (decision 062): admin
   * in the group, member outside it, except that the team's last active admin is never demoted.
   */
  private async withRoleFromGroups(
    provider: OidcProviderConfig,
    claims: ProviderClaims,
    user: UserRow,
  ): Promise<AuthUser> {
    const signedIn: AuthUser = {
      uid: user.id,
      email: user.email,
      displayName: user.display_name,
      photoURL: user.photo_url,
      role: user.role,
    };
    if (provider.adminGroup === undefined) return signedIn;
    const wanted: Role = groupsOf(provider, claims).includes(provider.adminGroup) ? 'admin' : 'member';
    if (wanted === user.role) return signedIn;
    const role = await this.deps.writes.run(async (trx, write) => {
      await lockAdminChanges(trx);
      if (wanted === 'member' && (await countActiveAdmins(trx)) <= 1) return user.role;
      await setUserRole(trx, user.id, wanted, nowIso());
      this.deps.auth.declareUserChanged(write, user.id);
      return wanted;
    });
    if (role !== wanted)
      this.deps.log.warn({ uid: user.id }, 'single sign-on: the last admin keeps the admin role');
    return { ...signedIn, role };
  }
}

function requireActive(user: UserRow | null): UserRow {
  if (!user || user.status !== 'active') throw new SsoFailure('deactivated');
  return user;
}

/** The groups claim as a list: an array of names, or one name. */
function groupsOf(provider: OidcProviderConfig, claims: ProviderClaims): string[] {
  const groups = claims[provider.groupsClaim];
  if (Array.isArray(groups)) return groups.filter((group): group is string => typeof group === 'string');
  return typeof groups === 'string' ? [groups] : [];
}

/** The signup policy, as the signup form meets it; its refusal becomes the login page's reason. */
async function admit(gate: SignupGate, email: string, flow: OidcFlowData): Promise<Admission> {
  try {
    return await gate.admit(email, flow.invitation ?? undefined, flow.setup ?? undefined);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const reason = flow.invitation || flow.setup ? 'invitation-invalid' : 'signup-refused';
    throw new SsoFailure(reason, error.message, { cause: error });
  }
}
