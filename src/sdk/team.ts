import type {
  AccountSession,
  AuthOptions,
  AuthUser,
  ChangePasswordInput,
  CreatedInvitation,
  CreateInvitationInput,
  Invitation,
  InvitationCheck,
  Member,
  MemberPage,
  PasswordResetInput,
  PasswordResetLink,
  Role,
  SignupPolicy,
} from '../common';
import type { SsoOptions } from '../common/single-sign-on';
import type { Transport } from './transport';

const idPath = (base: string, id: string) => `${base}/${encodeURIComponent(id)}`;

/** The signed-in user's own account: profile, password, sessions, deletion (docs/api.md "Account"). */
export class AccountClient {
  constructor(
    private readonly transport: Transport,
    /** Called with the user after a profile change, so the auth state shows it at once. */
    private readonly onProfileChanged: (user: AuthUser) => void,
  ) {}

  /** New display name and/or avatar (the signup thumbnail rules); the old avatar keeps working until then. */
  async updateProfile(input: {
    displayName?: string;
    thumbnail?: Blob;
    fileName?: string;
  }): Promise<AuthUser> {
    const form = new FormData();
    if (input.displayName !== undefined) form.set('displayName', input.displayName);
    if (input.thumbnail) {
      const fileName = input.fileName ?? (input.thumbnail as Partial<File>).name ?? 'thumbnail';
      form.set('thumbnail', input.thumbnail, fileName);
    }
    const { user } = await this.transport.request<{ user: AuthUser }>('PATCH', '/api/account/profile', form);
    this.onProfileChanged(user);
    return user;
  }

  /** Needs the current password; every other session of the account is signed out. */
  async changePassword(input: ChangePasswordInput): Promise<void> {
    await this.transport.request<void>('POST', '/api/account/password', input);
  }

  async listSessions(): Promise<AccountSession[]> {
    return (await this.transport.request<{ sessions: AccountSession[] }>('GET', '/api/account/sessions'))
      .sessions;
  }

  async signOutSession(id: string): Promise<void> {
    await this.transport.request<void>('DELETE', idPath('/api/account/sessions', id));
  }

  async signOutOtherSessions(): Promise<void> {
    await this.transport.request<void>('POST', '/api/account/sessions/sign-out-others');
  }

  /** Deletes the account (confirmed by its password); projects and comments stay, shown as a deleted user. */
  async deleteAccount(password: string): Promise<void> {
    await this.transport.request<void>('POST', '/api/account/delete', { password });
  }
}

/** Before signing in: what signup allows, invitation links, password resets. */
export class AccessClient {
  constructor(private readonly transport: Transport) {}

  /** Before sign-in: the signup policy, reset by email, and the single sign-on providers. */
  options(): Promise<AuthOptions & SsoOptions> {
    return this.transport.request<AuthOptions & SsoOptions>('GET', '/api/auth/options');
  }

  /** Whether an invitation link can still be used; its 410 / 404 errors say why not. */
  checkInvitation(token: string): Promise<InvitationCheck> {
    return this.transport.request<InvitationCheck>('GET', idPath('/api/invitations', token));
  }

  /** Emails a reset link when the address has an account; answers the same either way. */
  async requestPasswordReset(email: string): Promise<string> {
    return (
      await this.transport.request<{ message: string }>('POST', '/api/auth/password-reset/request', { email })
    ).message;
  }

  checkPasswordReset(token: string): Promise<{ expiresAt: string }> {
    return this.transport.request<{ expiresAt: string }>('GET', idPath('/api/auth/password-reset', token));
  }

  /** Sets the new password and signs out every session of the account. */
  async resetPassword(input: PasswordResetInput): Promise<void> {
    await this.transport.request<void>('POST', '/api/auth/password-reset', input);
  }
}

/** What admins do: members, roles, sign-up policy, invitations, reset links (403 for anyone else). */
export class AdminClient {
  constructor(
    private readonly transport: Transport,
    /** The server's origin as this client reaches it (the page's in a browser): the base of relative links. */
    private readonly origin: string,
  ) {}

  /** A server without PUBLIC_URL hands out links as paths; they are on the origin this client talks to. */
  private absoluteLink(url: string): string {
    return this.origin ? new URL(url, this.origin).href : url;
  }

  listMembers(page: { search?: string; after?: string | null; limit?: number } = {}): Promise<MemberPage> {
    const query = new URLSearchParams();
    if (page.search) query.set('search', page.search);
    if (page.after) query.set('after', page.after);
    if (page.limit !== undefined) query.set('limit', String(page.limit));
    const search = query.toString();
    return this.transport.request<MemberPage>('GET', `/api/admin/members${search ? `?${search}` : ''}`);
  }

  async setRole(memberId: string, role: Role): Promise<Member> {
    return (
      await this.transport.request<{ member: Member }>('PATCH', idPath('/api/admin/members', memberId), {
        role,
      })
    ).member;
  }

  async deactivate(memberId: string): Promise<Member> {
    const path = `${idPath('/api/admin/members', memberId)}/deactivate`;
    return (await this.transport.request<{ member: Member }>('POST', path)).member;
  }

  async reactivate(memberId: string): Promise<Member> {
    const path = `${idPath('/api/admin/members', memberId)}/reactivate`;
    return (await this.transport.request<{ member: Member }>('POST', path)).member;
  }

  async createPasswordReset(memberId: string): Promise<PasswordResetLink> {
    const path = `${idPath('/api/admin/members', memberId)}/password-reset`;
    const link = await this.transport.request<PasswordResetLink>('POST', path);
    return { ...link, url: this.absoluteLink(link.url) };
  }

  async signupPolicy(): Promise<SignupPolicy> {
    return (await this.transport.request<{ policy: SignupPolicy }>('GET', '/api/admin/signup-policy')).policy;
  }

  async setSignupPolicy(policy: SignupPolicy): Promise<SignupPolicy> {
    return (await this.transport.request<{ policy: SignupPolicy }>('PUT', '/api/admin/signup-policy', policy))
      .policy;
  }

  async listInvitations(): Promise<Invitation[]> {
    return (await this.transport.request<{ invitations: Invitation[] }>('GET', '/api/admin/invitations'))
      .invitations;
  }

  async createInvitation(input: CreateInvitationInput): Promise<CreatedInvitation> {
    const created = await this.transport.request<CreatedInvitation>('POST', '/api/admin/invitations', input);
    return { ...created, url: this.absoluteLink(created.url) };
  }

  async revokeInvitation(id: string): Promise<Invitation> {
    return (
      await this.transport.request<{ invitation: Invitation }>('DELETE', idPath('/api/admin/invitations', id))
    ).invitation;
  }
}
