/**
 * Team accounts: roles, who may sign up, invitations, members, account settings and password resets
 * (docs/decisions/018-team-roles.md). The shapes both sides use; request bodies have schemas here too.
 */
import { z } from 'zod/mini';
import { EMAIL_MAX_LENGTH, INVITATION_MAX_USES, INVITATION_MAX_DAYS, SIGNUP_DOMAINS_MAX } from './limits';
import { messages } from './messages';
import { pageSchemaOf } from './page-schema';
import { NewPasswordSchema, EmailSchema } from './auth';
import { ROLES } from './users';

/** Who may create an account: anyone (the spec's open install), only invited people, or these domains. */
export const SIGNUP_POLICY_MODES = ['open', 'invitation', 'domains'] as const;
export type SignupPolicyMode = (typeof SIGNUP_POLICY_MODES)[number];

/** A domain as people type it after the '@': lower-cased labels, at least one dot. */
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

const normalizeDomain = (domain: string): string => domain.trim().toLowerCase().replace(/^@/, '');

export const SignupPolicySchema = z
  .object({
    mode: z.enum(SIGNUP_POLICY_MODES, { error: messages.signupPolicyModeInvalid }),
    domains: z._default(
      z.pipe(
        z
          .array(z.string().check(z.maxLength(253)))
          .check(z.maxLength(SIGNUP_DOMAINS_MAX, messages.signupDomainsTooMany)),
        z.transform((domains: string[]) => [...new Set(domains.map(normalizeDomain).filter(Boolean))]),
      ),
      [],
    ),
  })
  .check(
    z.refine((policy) => policy.domains.every((domain) => DOMAIN.test(domain)), {
      message: messages.signupDomainInvalid,
      path: ['domains'],
    }),
    z.refine((policy) => policy.mode !== 'domains' || policy.domains.length > 0, {
      message: messages.signupDomainsRequired,
      path: ['domains'],
    }),
  );
export type SignupPolicy = z.output<typeof SignupPolicySchema>;

/** True when `email` ends in one of `domains` (exactly that domain, not a subdomain). */
export function emailInDomains(email: string, domains: readonly string[]): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return domains.includes(domain);
}

/** What the login and signup screens need to know before anyone signs in. */
export const AuthOptionsSchema = z.object({
  signupPolicy: SignupPolicySchema,
  /** 'Forgot password?' can email a link (the server has SMTP configured). */
  passwordResetByEmail: z.boolean(),
});
export type AuthOptions = z.infer<typeof AuthOptionsSchema>;

export const ChangeRoleSchema = z.object({ role: z.enum(ROLES, { error: messages.roleInvalid }) });

const MEMBER_STATUSES = ['active', 'deactivated'] as const;

/** One account as the members page shows it. */
const MemberSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  photoURL: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  online: z.boolean(),
  status: z.enum(MEMBER_STATUSES),
  /** The last time any of their sessions was used (ISO), or null if never since this was recorded. */
  lastActiveAt: z.nullable(z.string()),
  createdAt: z.string(),
});
export type Member = z.infer<typeof MemberSchema>;
export const MemberResultSchema = z.object({ member: MemberSchema });

/** Members per page on the members screen. */
export const MEMBERS_PAGE_SIZE = 50;

/** `nextCursor` goes as `after` for the next page. */
export const MemberPageSchema = pageSchemaOf('members', MemberSchema);
export type MemberPage = z.infer<typeof MemberPageSchema>;

/** A whole number from 1 to `max` (a form may send it as text), `fallback` when left out; else `message`. */
const wholeNumberUpTo = (max: number, message: string, fallback: number) =>
  z._default(
    z.coerce
      .number({ error: message })
      .check(z.int({ error: message }), z.minimum(1, message), z.maximum(max, message)),
    fallback,
  );

export const CreateInvitationSchema = z.object({
  maxUses: wholeNumberUpTo(INVITATION_MAX_USES, messages.invitationUsesInvalid, 1),
  expiresInDays: wholeNumberUpTo(INVITATION_MAX_DAYS, messages.invitationDaysInvalid, 7),
  /** Only this address may use it; empty for anyone. */
  email: z.optional(
    z.pipe(
      z.string().check(z.trim(), z.maxLength(EMAIL_MAX_LENGTH, messages.emailInvalid)),
      z.union([z.literal(''), z.email({ error: messages.emailInvalid })]),
    ),
  ),
});
export type CreateInvitationInput = z.input<typeof CreateInvitationSchema>;

const INVITATION_STATUSES = ['open', 'used', 'expired', 'revoked'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

const InvitationSchema = z.object({
  id: z.string(),
  email: z.nullable(z.string()),
  maxUses: z.number(),
  uses: z.number(),
  expiresAt: z.string(),
  createdAt: z.string(),
  createdBy: z.object({ id: z.string(), displayName: z.string() }),
  revokedAt: z.nullable(z.string()),
  status: z.enum(INVITATION_STATUSES),
});
export type Invitation = z.infer<typeof InvitationSchema>;
export const InvitationListSchema = z.object({ invitations: z.array(InvitationSchema) });
export const InvitationResultSchema = z.object({ invitation: InvitationSchema });

/** A new invitation and its link: the link is shown this once (only its hash is stored). */
export const CreatedInvitationSchema = z.object({ invitation: InvitationSchema, url: z.string() });
export type CreatedInvitation = z.infer<typeof CreatedInvitationSchema>;

/** What opening an invitation link tells the signup form. */
export const InvitationCheckSchema = z.object({
  /** The only address the invitation accepts, if it is bound to one. */
  email: z.nullable(z.string()),
  expiresAt: z.string(),
});
export type InvitationCheck = z.infer<typeof InvitationCheckSchema>;

/** A one-time link that sets a new password. */
export const PasswordResetLinkSchema = z.object({ url: z.string(), expiresAt: z.string() });
export type PasswordResetLink = z.infer<typeof PasswordResetLinkSchema>;

export const ChangePasswordSchema = z.object({
  currentPassword: z
    .string({ error: messages.passwordRequired })
    .check(z.minLength(1, messages.passwordRequired)),
  newPassword: NewPasswordSchema,
});
export type ChangePasswordInput = z.input<typeof ChangePasswordSchema>;

export const DeleteAccountSchema = z.object({
  password: z.string({ error: messages.passwordRequired }).check(z.minLength(1, messages.passwordRequired)),
});

export const PasswordResetRequestSchema = z.object({ email: EmailSchema });

export const PasswordResetSchema = z.object({
  token: z
    .string({ error: messages.resetLinkInvalid })
    .check(z.minLength(1, messages.resetLinkInvalid), z.maxLength(200, messages.resetLinkInvalid)),
  password: NewPasswordSchema,
});
export type PasswordResetInput = z.input<typeof PasswordResetSchema>;

/** One signed-in browser or client of the account, as the settings screen lists it. */
const AccountSessionSchema = z.object({
  id: z.string(),
  /** e.g. 'Chrome 131 on Linux', from the browser's User-Agent; 'Unknown device' when it sent none. */
  device: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  /** The session this request came through. */
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof AccountSessionSchema>;
export const AccountSessionListSchema = z.object({ sessions: z.array(AccountSessionSchema) });

/** How a deleted account shows on what it left behind (projects, comments). */
export const DELETED_USER_NAME = 'Deleted user';
