import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import {
  PASSKEY_CHALLENGE_TTL_MS,
  PASSKEYS_PER_MEMBER,
  passkeyMessages,
  RELYING_PARTY_NAME,
  type AddPasskeyInput,
  type Passkey,
  type PasskeyAssertionInput,
  type PasskeyList,
} from '../../common/passkeys';
import { AppError, forbidden, notFound } from '../core/app-error';
import { newSecretToken } from '../core/ids';
import { nowIso } from '../core/time';
import type { Viewer } from '../core/viewer';
import type { Database } from '../db/schema';
import { isUniqueViolation } from '../db/database';
import { authUserOf } from '../users/auth-user';
import { findUserById } from '../users/users-repository';
import type { AuthService, SignedIn } from '../auth/auth-service';
import type { PasswordSignInGate } from '../auth/password-sign-in-gate';
import { countPasskeys } from '../auth/second-step/second-step-repository';
import type { RelyingParty } from './relying-party';
import {
  deleteExpiredPasskeyFlows,
  deletePasskey,
  findActivePasskey,
  insertPasskey,
  insertPasskeyFlow,
  listPasskeysOf,
  recordPasskeyUse,
  renamePasskey,
  takePasskeyFlow,
  type PasskeyRow,
} from './passkeys-repository';

/**
 * @simplewebauthn/server, imported on first use: it and the ASN.1 and CBOR code it brings cost an idle
 * server memory it never needs unless someone uses a passkey (docs/decisions/039-no-driver-at-start.md).
 */
const loadWebAuthn = () => import('@simplewebauthn/server');

/** What a challenge's row keeps until the browser answers (docs/decisions/065-passkeys.md). */
interface ChallengeData {
  challenge: string;
  rpId: string;
  origin: string;
}

/** What the browser's answer must match, as @simplewebauthn's verify functions take it. */
const expectedBy = (expected: ChallengeData) => ({
  expectedChallenge: expected.challenge,
  expectedOrigin: expected.origin,
  expectedRPID: expected.rpId,
});

/** The options of a ceremony and the flow id the browser sends back with its answer. */
export interface CeremonyOptions {
  flow: string;
  options: Record<string, unknown>;
}

/** A passkey answer for the second step: whose password sign-in it finishes, and that sign-in's flow. */
export interface SecondStep {
  pendingUserOf(flow: string): Promise<{ userId: string }>;
  finish(flow: string, userAgent: string): Promise<SignedIn>;
}

interface Deps {
  db: Kysely<Database>;
  auth: AuthService;
  /**
   * While the team requires single sign-on, a passkey alone signs in only those a password would (admins):
   * otherwise a member the provider no longer lets in would still get in (docs/decisions/065-passkeys.md).
   */
  localSignIns?: PasswordSignInGate;
}

const hashFlow = (flow: string): string => createHash('sha256').update(`passkey:${flow}`).digest('base64url');
/** The passkey challenge of a password sign-in's second step lives under its own key, derived from that flow. */
const hashSecondStepFlow = (flow: string): string =>
  createHash('sha256').update(`passkey-second-step:${flow}`).digest('base64url');

const flowExpired = (): AppError => new AppError('unauthenticated', passkeyMessages.flowExpired);
const notVerified = (): AppError => new AppError('unauthenticated', passkeyMessages.notVerified);

const presentPasskey = (row: PasskeyRow): Passkey => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt,
  lastUsedAt: row.lastUsedAt,
});

/**
 * Passkeys (docs/decisions/065-passkeys.md): a member adds, names and removes them in settings, and signs
 * in with one alone or as the second step after a password. Every challenge is a `sign_in_flows` row, used
 * once and gone in 5 minutes, so each step of a ceremony may reach any instance.
 */
export class PasskeysService {
  constructor(private readonly deps: Deps) {}

  // ---- Settings ----

  async list(viewer: Viewer): Promise<PasskeyList> {
    const rows = await listPasskeysOf(this.deps.db, requireBrowser(viewer).uid);
    return { passkeys: rows.map(presentPasskey), max: PASSKEYS_PER_MEMBER };
  }

  /**
   * Options for `navigator.credentials.create()`: a discoverable credential (so it signs in with no email
   * typed), user verification preferred, and none of the member's passkeys again.
   */
  async registrationOptions(viewer: Viewer, rp: RelyingParty): Promise<CeremonyOptions> {
    const { uid, email, displayName } = requireBrowser(viewer);
    const existing = await listPasskeysOf(this.deps.db, uid);
    if (existing.length >= PASSKEYS_PER_MEMBER) throw new AppError('conflict', passkeyMessages.tooMany);
    const { generateRegistrationOptions } = await loadWebAuthn();
    const options = await generateRegistrationOptions({
      rpName: RELYING_PARTY_NAME,
      rpID: rp.rpId,
      userName: email,
      userDisplayName: displayName,
      userID: new TextEncoder().encode(uid),
      timeout: PASSKEY_CHALLENGE_TTL_MS,
      attestationType: 'none',
      excludeCredentials: existing.map((passkey) => ({
        id: passkey.id,
        transports: passkey.transports as AuthenticatorTransport[],
      })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    const flow = await this.startFlow('passkey-registration', uid, {
      challenge: options.challenge,
      ...rp,
    });
    return { flow, options: options as unknown as Record<string, unknown> };
  }

  /** Verifies the browser's new credential against the challenge and keeps it under the member's name for it. */
  async register(viewer: Viewer, rp: RelyingParty, input: AddPasskeyInput): Promise<Passkey> {
    const { uid } = requireBrowser(viewer);
    const expected = await this.takeFlow(hashFlow(input.flow), 'passkey-registration', uid, rp);
    const { verifyRegistrationResponse } = await loadWebAuthn();
    let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verification = await verifyRegistrationResponse({
        response: input.response as unknown as RegistrationResponseJSON,
        ...expectedBy(expected),
        requireUserVerification: false,
      });
    } catch {
      throw new AppError('invalid-argument', passkeyMessages.notVerified);
    }
    if (!verification.verified) throw new AppError('invalid-argument', passkeyMessages.notVerified);
    const { credential } = verification.registrationInfo;
    // Counted again here: two registrations started side by side must not pass the cap together.
    if ((await countPasskeys(this.deps.db, uid)) >= PASSKEYS_PER_MEMBER) {
      throw new AppError('conflict', passkeyMessages.tooMany);
    }
    const passkey = {
      id: credential.id,
      userId: uid,
      name: input.name,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? [],
      createdAt: nowIso(),
    };
    try {
      await insertPasskey(this.deps.db, passkey);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('conflict', passkeyMessages.alreadyAdded);
      throw error;
    }
    return presentPasskey({ ...passkey, lastUsedAt: null });
  }

  async rename(viewer: Viewer, id: string, name: string): Promise<Passkey> {
    const { uid } = requireBrowser(viewer);
    if (!(await renamePasskey(this.deps.db, uid, id, name))) throw notFound(passkeyMessages.notFound);
    const renamed = (await listPasskeysOf(this.deps.db, uid)).find((passkey) => passkey.id === id);
    if (!renamed) throw notFound(passkeyMessages.notFound);
    return presentPasskey(renamed);
  }

  async remove(viewer: Viewer, id: string): Promise<void> {
    const { uid } = requireBrowser(viewer);
    if (!(await deletePasskey(this.deps.db, uid, id))) throw notFound(passkeyMessages.notFound);
  }

  // ---- Signing in with a passkey alone ----

  /**
   * Options for `navigator.credentials.get()` with no credentials listed: the browser offers the passkeys
   * it holds for this site, and the one chosen says whose it is. User verification is required, so a
   * passkey alone is two factors (the device and its PIN or biometric) and needs no second step.
   */
  async signInOptions(rp: RelyingParty): Promise<CeremonyOptions> {
    const { generateAuthenticationOptions } = await loadWebAuthn();
    const options = await generateAuthenticationOptions({
      rpID: rp.rpId,
      userVerification: 'required',
      timeout: PASSKEY_CHALLENGE_TTL_MS,
    });
    const flow = await this.startFlow('passkey-sign-in', null, { challenge: options.challenge, ...rp });
    return { flow, options: options as unknown as Record<string, unknown> };
  }

  async signIn(rp: RelyingParty, input: PasskeyAssertionInput, userAgent: string): Promise<SignedIn> {
    const expected = await this.takeFlow(hashFlow(input.flow), 'passkey-sign-in', null, rp);
    const passkey = await this.verifyAssertion(input, expected, { requireUserVerification: true });
    const user = await findUserById(this.deps.db, passkey.userId);
    // The credential was found for an active account a moment ago; a deactivation in between still wins.
    if (user?.status !== 'active') throw notVerified();
    await this.deps.localSignIns?.check(user.role);
    return this.deps.auth.startSession(authUserOf(user), userAgent);
  }

  // ---- A passkey as the second step after a password ----

  /** Options for the second step: only the pending member's passkeys, user verification preferred. */
  async secondStepOptions(secondStep: SecondStep, rp: RelyingParty, flow: string): Promise<CeremonyOptions> {
    const { userId } = await secondStep.pendingUserOf(flow);
    const passkeys = await listPasskeysOf(this.deps.db, userId);
    if (passkeys.length === 0) throw new AppError('not-found', passkeyMessages.unknownPasskey);
    const { generateAuthenticationOptions } = await loadWebAuthn();
    const options = await generateAuthenticationOptions({
      rpID: rp.rpId,
      userVerification: 'preferred',
      timeout: PASSKEY_CHALLENGE_TTL_MS,
      allowCredentials: passkeys.map((passkey) => ({
        id: passkey.id,
        transports: passkey.transports as AuthenticatorTransport[],
      })),
    });
    const now = new Date();
    await deleteExpiredPasskeyFlows(this.deps.db, now.toISOString());
    // A second request for options replaces the first challenge: only the latest one may be answered.
    await takePasskeyFlow(this.deps.db, {
      idHash: hashSecondStepFlow(flow),
      kind: 'passkey-sign-in',
      userId,
      now: now.toISOString(),
    });
    await insertPasskeyFlow(this.deps.db, {
      idHash: hashSecondStepFlow(flow),
      kind: 'passkey-sign-in',
      userId,
      data: JSON.stringify({ challenge: options.challenge, ...rp } satisfies ChallengeData),
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_MS).toISOString(),
    });
    return { flow, options: options as unknown as Record<string, unknown> };
  }

  /** Proves the pending member's passkey, then lets the second step sign them in (its flow used up). */
  async completeSecondStep(
    secondStep: SecondStep,
    rp: RelyingParty,
    input: PasskeyAssertionInput,
    userAgent: string,
  ): Promise<SignedIn> {
    const { userId } = await secondStep.pendingUserOf(input.flow);
    const expected = await this.takeFlow(hashSecondStepFlow(input.flow), 'passkey-sign-in', userId, rp);
    await this.verifyAssertion(input, expected, { requireUserVerification: false, holder: userId });
    return secondStep.finish(input.flow, userAgent);
  }

  // ---- The ceremonies' common steps ----

  private async startFlow(
    kind: 'passkey-registration' | 'passkey-sign-in',
    userId: string | null,
    data: ChallengeData,
  ): Promise<string> {
    const flow = newSecretToken();
    const now = new Date();
    await deleteExpiredPasskeyFlows(this.deps.db, now.toISOString());
    await insertPasskeyFlow(this.deps.db, {
      idHash: hashFlow(flow),
      kind,
      userId,
      data: JSON.stringify(data),
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_MS).toISOString(),
    });
    return flow;
  }

  /**
   * Uses the challenge up (whatever comes next, it is never answered twice) and checks that this request
   * is for the same site the options were: a ceremony begun under one host name is not finished under another.
   */
  private async takeFlow(
    idHash: string,
    kind: 'passkey-registration' | 'passkey-sign-in',
    userId: string | null,
    rp: RelyingParty,
  ): Promise<ChallengeData> {
    const data = await takePasskeyFlow(this.deps.db, { idHash, kind, userId, now: nowIso() });
    if (data === null) throw flowExpired();
    const expected = JSON.parse(data) as ChallengeData;
    if (expected.rpId !== rp.rpId || expected.origin !== rp.origin) {
      throw new AppError('forbidden', passkeyMessages.wrongSite);
    }
    return expected;
  }

  /**
   * Checks an assertion against the stored credential it names: the challenge, origin, RP ID, signature and
   * counter (one that went backwards, or stood still while not zero, is a cloned authenticator or a replay
   * and is refused); then records the new counter.
   */
  private async verifyAssertion(
    input: PasskeyAssertionInput,
    expected: ChallengeData,
    { requireUserVerification, holder }: { requireUserVerification: boolean; holder?: string },
  ): Promise<PasskeyRow> {
    const passkey = await findActivePasskey(this.deps.db, input.response.id);
    if (!passkey) throw new AppError('unauthenticated', passkeyMessages.unknownPasskey);
    // Before its signature is even checked: another member's passkey neither helps nor moves its counter.
    if (holder !== undefined && passkey.userId !== holder) {
      throw new AppError('unauthenticated', passkeyMessages.notForThisAccount);
    }
    const { verifyAuthenticationResponse } = await loadWebAuthn();
    let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      verification = await verifyAuthenticationResponse({
        response: input.response as unknown as AuthenticationResponseJSON,
        ...expectedBy(expected),
        requireUserVerification,
        credential: {
          id: passkey.id,
          publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
          counter: passkey.counter,
          transports: passkey.transports as AuthenticatorTransport[],
        },
      });
    } catch {
      throw notVerified();
    }
    if (!verification.verified) throw notVerified();
    const { newCounter } = verification.authenticationInfo;
    const recorded = await recordPasskeyUse(this.deps.db, {
      id: passkey.id,
      checkedCounter: passkey.counter,
      newCounter,
      now: nowIso(),
    });
    // Another sign-in moved the counter since it was read: only one of two answers with one count passes.
    if (!recorded && (passkey.counter > 0 || newCounter > 0)) throw notVerified();
    return passkey;
  }
}

/** Passkeys are the account's security: only a browser's own session manages them, never a token. */
function requireBrowser(viewer: Viewer): Viewer {
  // `viaToken`: an id token, or a personal API token (docs/decisions/063-personal-api-tokens.md).
  if (viewer.viaToken) throw forbidden(passkeyMessages.browserSessionOnly);
  return viewer;
}
