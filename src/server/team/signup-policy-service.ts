import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { emailInDomains, messages, SignupPolicySchema, type SignupPolicy } from '../../common';
import type { Admission, SignupGate } from '../auth/signup-gate';
import type { Viewer } from '../core/viewer';
import type { Database } from '../db/schema';
import { findSetting, putSetting } from '../db/settings-repository';
import { AppError } from '../core/app-error';
import { newSecretToken } from '../core/ids';
import type { Logger } from '../core/logger';
import { nowIso } from '../core/time';
import { requireAdmin } from './admin-rules';
import type { InvitationsService } from './invitations-service';
import { deleteSetupTokens, insertSetupToken, setupTokenExists } from './setup-tokens-repository';

const POLICY_KEY = 'signup_policy';
/** Set by the install's first signup, which becomes its first admin (`claimOwnership`). */
const OWNER_KEY = 'owner';

const hashSetupToken = (token: string): string =>
  createHash('sha256').update(`setup:${token}`).digest('base64url');

/**
 * Who may create an account (docs/decisions/018-team-roles.md). The policy lives in `settings`, so an
 * admin's change holds at once on every instance; until an admin sets one, `SIGNUP_POLICY` applies.
 * A valid invitation admits under any policy: that is how admins let in someone the policy would refuse.
 */
export class SignupPolicyService implements SignupGate {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      initial: SignupPolicy;
      invitations: InvitationsService;
    },
  ) {}

  async current(): Promise<SignupPolicy> {
    const stored = await findSetting(this.deps.db, POLICY_KEY);
    if (stored === null) return this.deps.initial;
    const parsed = SignupPolicySchema.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : this.deps.initial;
  }

  /** The policy as the admin screen edits it. */
  async read(viewer: Viewer): Promise<SignupPolicy> {
    requireAdmin(viewer);
    return this.current();
  }

  async update(viewer: Viewer, policy: SignupPolicy): Promise<SignupPolicy> {
    requireAdmin(viewer);
    await putSetting(this.deps.db, POLICY_KEY, JSON.stringify(policy));
    return policy;
  }

  /**
   * The first admin's way in when sign-up is by invitation only (docs/decisions/046-members-who-leave.md):
   * while nobody has signed up, every start logs a link that admits one signup under any policy. Only its
   * hash is stored; the link is on PUBLIC_URL, or relative when that is not set, never on a request's host.
   */
  async logSetupLinkIfNeeded(publicUrl: string | undefined, log: Logger): Promise<void> {
    const { db } = this.deps;
    if ((await this.current()).mode !== 'invitation' || (await findSetting(db, OWNER_KEY)) !== null) return;
    const token = newSecretToken();
    await insertSetupToken(db, hashSetupToken(token), nowIso());
    log.warn(
      { setupLink: `${publicUrl ?? ''}/signup?setup=${encodeURIComponent(token)}` },
      'No account yet and sign-up is by invitation only: open setupLink to create the first admin (it works once)',
    );
  }

  /** Throws a 403 (policy) or 410/404/403 (invitation or setup link) that says why; nothing is written. */
  async admit(
    email: string,
    invitationToken: string | undefined,
    setupToken?: string | undefined,
  ): Promise<Admission> {
    if (setupToken) {
      const setupTokenHash = hashSetupToken(setupToken);
      const usable =
        (await findSetting(this.deps.db, OWNER_KEY)) === null &&
        (await setupTokenExists(this.deps.db, setupTokenHash));
      if (!usable) throw new AppError('gone', messages.setupLinkInvalid);
      return { invitationId: null, setupTokenHash };
    }
    if (invitationToken) {
      const invitation = await this.deps.invitations.usableFor(invitationToken, email);
      return { invitationId: invitation.id, invitationForEmail: invitation.forEmail };
    }
    const policy = await this.current();
    if (policy.mode === 'invitation') throw new AppError('forbidden', messages.signupInvitationOnly);
    if (policy.mode === 'domains' && !emailInDomains(email, policy.domains)) {
      throw new AppError('forbidden', messages.signupDomainRefused, { email: messages.signupDomainRefused });
    }
    return { invitationId: null };
  }

  /**
   * Inside the signup's transaction: uses up the invitation, or the setup link together with every other
   * one (an install has one first admin); throws if it was used up meanwhile.
   */
  async consume(trx: Kysely<Database>, admission: Admission): Promise<void> {
    if (admission.invitationId) await this.deps.invitations.consume(trx, admission.invitationId);
    if (admission.setupTokenHash) {
      const usedUp = !(await deleteSetupTokens(trx, admission.setupTokenHash));
      if (usedUp || (await findSetting(trx, OWNER_KEY)) !== null) {
        throw new AppError('gone', messages.setupLinkInvalid);
      }
    }
  }
}
