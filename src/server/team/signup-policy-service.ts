import type { Kysely } from 'kysely';
import { emailInDomains, messages, SignupPolicySchema, type SignupPolicy } from '../../common';
import type { Viewer } from '../core/viewer';
import type { Database } from '../db/schema';
import { findSetting, putSetting } from '../db/settings-repository';
import { AppError } from '../core/app-error';
import { requireAdmin } from './admin-rules';
import type { InvitationsService } from './invitations-service';

const POLICY_KEY = 'signup_policy';

/** Whether a signup may go ahead, and the invitation it will use up (in the signup's transaction). */
export interface Admission {
  invitationId: string | null;
}

/**
 * Who may create an account (docs/decisions/018-team-roles.md). The policy lives in `settings`, so an
 * admin's change holds at once on every instance; until an admin sets one, `SIGNUP_POLICY` applies.
 * A valid invitation admits under any policy: that is how admins let in someone the policy would refuse.
 */
export class SignupPolicyService {
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

  /** Throws a 403 (policy) or 410/404/403 (invitation) that says why; nothing is written. */
  async admit(email: string, invitationToken: string | undefined): Promise<Admission> {
    if (invitationToken) {
      const invitation = await this.deps.invitations.usableFor(invitationToken, email);
      return { invitationId: invitation.id };
    }
    const policy = await this.current();
    if (policy.mode === 'invitation') throw new AppError('forbidden', messages.signupInvitationOnly);
    if (policy.mode === 'domains' && !emailInDomains(email, policy.domains)) {
      throw new AppError('forbidden', messages.signupDomainRefused, { email: messages.signupDomainRefused });
    }
    return { invitationId: null };
  }

  /** Inside the signup's transaction: uses up the invitation, or throws if it was used up meanwhile. */
  async consume(trx: Kysely<Database>, admission: Admission): Promise<void> {
    if (admission.invitationId) await this.deps.invitations.consume(trx, admission.invitationId);
  }
}
