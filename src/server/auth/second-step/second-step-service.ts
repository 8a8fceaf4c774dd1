import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AuthUser, LoginInput, SecondStepChallenge, SecondStepMethod } from '../../../common';
import {
  looksLikeTotpCode,
  SECOND_STEP_POLICIES,
  secondStepMessages,
  type RecoveryCodes,
  type SecondStepPolicy,
  type SecondStepProof,
  type TotpEnrolment,
  type TwoStepStatus,
} from '../../../common/second-step';
import { AppError, forbidden, invalidArgument, notFound } from '../../core/app-error';
import { newSecretToken } from '../../core/ids';
import { nowIso } from '../../core/time';
import type { Viewer } from '../../core/viewer';
import type { Database } from '../../db/schema';
import { findSetting, putSetting } from '../../db/settings-repository';
import { authUserOf } from '../../users/auth-user';
import { findUserById, type UserRow } from '../../users/users-repository';
import type { AuthService, SignedIn } from '../auth-service';
import type { LoginFailureLimit } from '../login-failures';
import { verifyPassword } from '../passwords';
import {
  claimTotpStep,
  countPasskeys,
  countUnusedRecoveryCodes,
  countWrongCode,
  deleteExpiredSecondStepFlows,
  deleteRecoveryCodes,
  deleteSecondStepFlow,
  deleteTotpFactor,
  findSecondStepFlow,
  findTotpFactor,
  insertSecondStepFlow,
  putConfirmedTotpFactor,
  putPendingTotpFactor,
  replaceRecoveryCodes,
  updateSecondStepFlowData,
  useRecoveryCode,
} from './second-step-repository';
import { hashRecoveryCode, matchingTotpStep, newRecoveryCodes, newTotpSecret } from './totp';

/** A second step waits this long for its code (decision 062). */
const SECOND_STEP_TTL_MS = 5 * 60 * 1000;
/** Wrong codes one sign-in may try before it must start again with the password. */
const SECOND_STEP_MAX_ATTEMPTS = 5;
const POLICY_KEY = 'second_step_policy';

/** What a password login comes to: signed in, or a second step to give first. */
export type PasswordLogin = { signedIn: SignedIn } | SecondStepChallenge;

/** A flow's data: the secret being set up at login when the team requires a second step the account lacks. */
interface FlowData {
  enrolSecret?: string;
}

interface Deps {
  db: Kysely<Database>;
  auth: AuthService;
  loginFailures: LoginFailureLimit;
}

const hashFlow = (flow: string): string =>
  createHash('sha256').update(`second-step:${flow}`).digest('base64url');

const flowExpired = (): AppError => new AppError('unauthenticated', secondStepMessages.flowExpired);

/**
 * Two-step sign-in (docs/decisions/064-two-step-sign-in.md): after a right password, a TOTP code, a recovery
 * code or a passkey; the team's policy of who must have one; TOTP and recovery codes in settings.
 *
 * `pendingUserOf` and `finish` are the contract with the passkey second step: it proves the passkey, then
 * calls `finish`, which uses up the flow and signs in like any other proof.
 */
export class SecondStepService {
  constructor(private readonly deps: Deps) {}

  // ---- Login ----

  /** Checks the password, then signs in or answers with the second step the account (or the team) needs. */
  async logIn(input: LoginInput, userAgent: string): Promise<PasswordLogin> {
    const user = await this.deps.auth.checkPassword(input);
    const methods = await this.methodsOf(user.uid);
    const required = await this.requiredFor(user);
    if (methods.length === 0 && !required) {
      return { signedIn: await this.deps.auth.startSession(user, userAgent) };
    }
    const flow = newSecretToken();
    const now = new Date();
    await deleteExpiredSecondStepFlows(this.deps.db, now.toISOString());
    await insertSecondStepFlow(this.deps.db, {
      idHash: hashFlow(flow),
      userId: user.uid,
      data: '{}',
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + SECOND_STEP_TTL_MS).toISOString(),
    });
    return { secondStep: { flow, methods, enrol: methods.length === 0 } };
  }

  /** Whose sign-in `flow` is; 401 when it is unknown, used or expired. */
  async pendingUserOf(flow: string): Promise<{ userId: string }> {
    const row = await findSecondStepFlow(this.deps.db, hashFlow(flow), nowIso());
    if (!row) throw flowExpired();
    return { userId: row.userId };
  }

  /** Ends the flow (once, on every instance) and signs its member in. Call only once its proof is checked. */
  async finish(flow: string, userAgent: string): Promise<SignedIn> {
    const { userId } = await this.pendingUserOf(flow);
    if (!(await deleteSecondStepFlow(this.deps.db, hashFlow(flow)))) throw flowExpired();
    const user = await findUserById(this.deps.db, userId);
    if (user?.status !== 'active') throw flowExpired();
    return this.deps.auth.startSession(authUserOf(user), userAgent);
  }

  /** The second step by a TOTP code or a recovery code. */
  async completeWithCode(flow: string, code: string, userAgent: string): Promise<SignedIn> {
    const { user, idHash } = await this.flowUser(flow);
    if (!(await findTotpFactor(this.deps.db, user.id))?.confirmedAt) {
      // Only an account with TOTP on has codes: one setting it up confirms through the enrolment route, one
      // with only a passkey uses it.
      const passkeys = await countPasskeys(this.deps.db, user.id);
      throw new AppError(
        'forbidden',
        passkeys > 0 ? secondStepMessages.passkeyOnly : secondStepMessages.enrolFirst,
      );
    }
    await this.countedCheck(user, idHash, () => this.acceptCode(user.id, code));
    return this.finish(flow, userAgent);
  }

  /** Enrolment at login (the team requires a second step the account lacks): a new secret for this flow. */
  async startEnrolmentInFlow(flow: string): Promise<TotpEnrolment> {
    const { user, idHash } = await this.flowUser(flow);
    await this.requireEnrolmentDue(user);
    const enrolment = await newTotpSecret(user.email);
    await updateSecondStepFlowData(this.deps.db, idHash, JSON.stringify({ enrolSecret: enrolment.secret }));
    return enrolment;
  }

  /** The first code from the app turns TOTP on, signs in, and gives the recovery codes (shown once). */
  async confirmEnrolmentInFlow(
    flow: string,
    code: string,
    userAgent: string,
  ): Promise<{ signedIn: SignedIn; recoveryCodes: string[] }> {
    const { user, idHash, row } = await this.flowUser(flow);
    const secret = parseFlowData(row.data).enrolSecret;
    if (secret === undefined) throw new AppError('forbidden', secondStepMessages.enrolFirst);
    await this.requireEnrolmentDue(user);
    const step = await this.countedCheck(user, idHash, () => matchingTotpStep(secret, code));
    const recoveryCodes = await this.turnOn(user.id, secret, step);
    return { signedIn: await this.finish(flow, userAgent), recoveryCodes };
  }

  // ---- Settings ----

  async status(viewer: Viewer): Promise<TwoStepStatus> {
    const user = await this.activeUser(viewer.uid);
    const factor = await findTotpFactor(this.deps.db, viewer.uid);
    return {
      totp: Boolean(factor?.confirmedAt),
      recoveryCodesLeft: factor?.confirmedAt ? await countUnusedRecoveryCodes(this.deps.db, viewer.uid) : 0,
      hasPassword: user.password_hash !== '',
      required: await this.requiredFor(viewer),
    };
  }

  /** A new secret to scan; TOTP stays off until `confirmEnrolment` gets a right code from it. */
  async startEnrolment(viewer: Viewer): Promise<TotpEnrolment> {
    const user = await this.activeUser(viewer.uid);
    if (user.password_hash === '') throw new AppError('conflict', secondStepMessages.noPassword);
    if ((await findTotpFactor(this.deps.db, viewer.uid))?.confirmedAt) {
      throw new AppError('conflict', secondStepMessages.alreadyOn);
    }
    const enrolment = await newTotpSecret(user.email);
    await putPendingTotpFactor(this.deps.db, viewer.uid, enrolment.secret, nowIso());
    return enrolment;
  }

  async confirmEnrolment(viewer: Viewer, code: string): Promise<RecoveryCodes> {
    const factor = await findTotpFactor(this.deps.db, viewer.uid);
    if (factor?.confirmedAt) throw new AppError('conflict', secondStepMessages.alreadyOn);
    if (!factor) throw new AppError('conflict', secondStepMessages.enrolFirst);
    const step = await matchingTotpStep(factor.secret, code);
    if (step === null) throw invalidArgument({ code: secondStepMessages.codeWrong });
    return { recoveryCodes: await this.turnOn(viewer.uid, factor.secret, step) };
  }

  async regenerateRecoveryCodes(viewer: Viewer, proof: SecondStepProof): Promise<RecoveryCodes> {
    await this.requireTotpOn(viewer.uid);
    await this.requireProof(viewer, proof);
    const recoveryCodes = newRecoveryCodes();
    await replaceRecoveryCodes(this.deps.db, viewer.uid, recoveryCodes.map(hashRecoveryCode));
    return { recoveryCodes };
  }

  async turnOff(viewer: Viewer, proof: SecondStepProof): Promise<void> {
    await this.requireTotpOn(viewer.uid);
    await this.requireProof(viewer, proof);
    await this.deps.db.transaction().execute(async (trx) => {
      await deleteTotpFactor(trx, viewer.uid);
      await deleteRecoveryCodes(trx, viewer.uid);
    });
  }

  /**
   * An admin turns a member's TOTP off (and their recovery codes) when they lost both the app and the codes:
   * the password alone then signs in, or, under the team's policy, the next login sets up TOTP again.
   * A password reset never does this (it would make the second step only as strong as the inbox).
   */
  async resetFor(viewer: Viewer, memberId: string): Promise<void> {
    if (viewer.role !== 'admin') throw forbidden();
    const member = await findUserById(this.deps.db, memberId);
    if (!member || member.status === 'deleted') throw notFound();
    await this.deps.db.transaction().execute(async (trx) => {
      await deleteTotpFactor(trx, memberId);
      await deleteRecoveryCodes(trx, memberId);
    });
  }

  // ---- Team policy ----

  async currentPolicy(): Promise<SecondStepPolicy> {
    const stored = await findSetting(this.deps.db, POLICY_KEY);
    return SECOND_STEP_POLICIES.find((policy) => policy === stored) ?? 'off';
  }

  async readPolicy(viewer: Viewer): Promise<SecondStepPolicy> {
    if (viewer.role !== 'admin') throw forbidden();
    return this.currentPolicy();
  }

  async setPolicy(viewer: Viewer, policy: SecondStepPolicy): Promise<SecondStepPolicy> {
    if (viewer.role !== 'admin') throw forbidden();
    await putSetting(this.deps.db, POLICY_KEY, policy);
    return policy;
  }

  // ---- Helpers ----

  private async requiredFor(user: Pick<AuthUser, 'role'>): Promise<boolean> {
    const policy = await this.currentPolicy();
    return policy === 'everyone' || (policy === 'admins' && user.role === 'admin');
  }

  private async methodsOf(userId: string): Promise<SecondStepMethod[]> {
    const methods: SecondStepMethod[] = [];
    if ((await findTotpFactor(this.deps.db, userId))?.confirmedAt) methods.push('totp', 'recovery');
    if ((await countPasskeys(this.deps.db, userId)) > 0) methods.push('passkey');
    return methods;
  }

  private async flowUser(flow: string) {
    const idHash = hashFlow(flow);
    const row = await findSecondStepFlow(this.deps.db, idHash, nowIso());
    if (!row) throw flowExpired();
    const user = await findUserById(this.deps.db, row.userId);
    if (user?.status !== 'active') throw flowExpired();
    return { user, idHash, row };
  }

  /** Enrolment within a flow is only for an account the policy holds that has no second step yet. */
  private async requireEnrolmentDue(user: UserRow): Promise<void> {
    const due = (await this.requiredFor({ role: user.role })) && (await this.methodsOf(user.id)).length === 0;
    if (!due) throw new AppError('forbidden', secondStepMessages.enrolFirst);
  }

  /**
   * One code tried within a flow: counted against the account's login-failure budget (the same as wrong
   * passwords, so a password thief cannot guess codes past it), and against the flow, which dies after
   * SECOND_STEP_MAX_ATTEMPTS wrong codes.
   */
  private async countedCheck<T>(user: UserRow, idHash: string, check: () => Promise<T | null>): Promise<T> {
    const attempt = await this.deps.loginFailures.begin(user.email_key);
    const accepted = await check();
    if (accepted !== null) {
      await attempt.succeeded();
      return accepted;
    }
    const attempts = await countWrongCode(this.deps.db, idHash);
    if (attempts === null) throw flowExpired();
    if (attempts >= SECOND_STEP_MAX_ATTEMPTS) {
      await deleteSecondStepFlow(this.deps.db, idHash);
      throw new AppError('unauthenticated', secondStepMessages.flowTooManyTries);
    }
    throw new AppError('wrong-credentials', secondStepMessages.codeWrong, {
      code: secondStepMessages.codeWrong,
    });
  }

  /** A TOTP code (its step used once) or an unused recovery code (then used); true when accepted. */
  private async acceptCode(userId: string, code: string): Promise<true | null> {
    if (looksLikeTotpCode(code)) {
      const factor = await findTotpFactor(this.deps.db, userId);
      if (!factor?.confirmedAt) return null;
      const step = await matchingTotpStep(factor.secret, code);
      if (step === null) return null;
      return (await claimTotpStep(this.deps.db, userId, step, factor.confirmedAt)) ? true : null;
    }
    return (await useRecoveryCode(this.deps.db, userId, hashRecoveryCode(code), nowIso())) ? true : null;
  }

  private async turnOn(userId: string, secret: string, step: number): Promise<string[]> {
    const recoveryCodes = newRecoveryCodes();
    await this.deps.db.transaction().execute(async (trx) => {
      await putConfirmedTotpFactor(trx, userId, secret, step, nowIso());
      await replaceRecoveryCodes(trx, userId, recoveryCodes.map(hashRecoveryCode));
    });
    return recoveryCodes;
  }

  private async requireTotpOn(userId: string): Promise<void> {
    if (!(await findTotpFactor(this.deps.db, userId))?.confirmedAt) {
      throw new AppError('conflict', secondStepMessages.notOn);
    }
  }

  /**
   * The member at the keyboard knows the password or holds the app: a stolen session alone cannot turn
   * the second step off. Counted against the account's login-failure budget like a login.
   */
  private async requireProof(viewer: Viewer, proof: SecondStepProof): Promise<void> {
    const user = await this.activeUser(viewer.uid);
    const code = proof.code?.trim();
    if (!proof.password && !code) throw invalidArgument({ password: secondStepMessages.proofRequired });
    const attempt = await this.deps.loginFailures.begin(user.email_key);
    const passwordRight =
      proof.password !== undefined && proof.password !== '' && user.password_hash !== ''
        ? await verifyPassword(proof.password, user.password_hash)
        : false;
    const codeRight = !passwordRight && code ? (await this.acceptCode(user.id, code)) !== null : false;
    if (!passwordRight && !codeRight) {
      const field = proof.password ? 'password' : 'code';
      throw invalidArgument({ [field]: secondStepMessages.proofWrong });
    }
    await attempt.succeeded();
  }

  private async activeUser(userId: string): Promise<UserRow> {
    const user = await findUserById(this.deps.db, userId);
    if (user?.status !== 'active') throw forbidden();
    return user;
  }
}

function parseFlowData(data: string): FlowData {
  try {
    const parsed = JSON.parse(data) as unknown;
    if (
      parsed &&
      typeof parsed === 'object' &&
      'enrolSecret' in parsed &&
      typeof parsed.enrolSecret === 'string'
    ) {
      return { enrolSecret: parsed.enrolSecret };
    }
  } catch {
    // A row this code did not write: no enrolment in progress.
  }
  return {};
}
