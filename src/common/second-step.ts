import { z } from 'zod/mini';
import { PASSWORD_MAX_LENGTH } from './limits';

/**
 * Two-step sign-in (issue 29, point 3; docs/decisions/064-two-step-sign-in.md): TOTP codes, one-time
 * recovery codes and the team's policy. Imported by path, never through `common/index.ts`, so only the
 * screens that use it carry it (the first-visit JS budget, docs/benchmarks.md).
 */

export const secondStepMessages = {
  codeRequired: 'Please enter the code.',
  codeWrong: 'That code is not right. Check your authenticator app and try again.',
  codeFormat: 'Enter the 6-digit code from your authenticator app, or a recovery code.',
  flowExpired: 'This sign-in has expired or is no longer valid. Please log in again.',
  flowTooManyTries: 'Too many wrong codes. Please log in again.',
  enrolFirst: 'Set up your authenticator app first: ask for a new QR code.',
  passkeyOnly: 'This account has no authenticator app for codes: use your passkey.',
  alreadyOn: 'Two-step sign-in is already on. Turn it off first to use another app.',
  notOn: 'Two-step sign-in is not on.',
  proofRequired: 'Enter your current password or a code from your authenticator app.',
  proofWrong: 'That password or code is not right.',
  noPassword: 'Two-step sign-in protects password sign-in; set a password first.',
  policyInvalid: 'Choose off, for admins or for everyone.',
} as const;

/** Digits of a TOTP code; 30-second steps, SHA-1: what every authenticator app reads from a QR code. */
const TOTP_DIGITS = 6;
export const RECOVERY_CODE_COUNT = 10;

export const SECOND_STEP_POLICIES = ['off', 'admins', 'everyone'] as const;
export type SecondStepPolicy = (typeof SECOND_STEP_POLICIES)[number];

export const SecondStepPolicySchema = z.object({
  policy: z.enum(SECOND_STEP_POLICIES, { error: secondStepMessages.policyInvalid }),
});

/** A code as typed: spaces and dashes are kept for recovery codes and dropped before checking. */
const CodeSchema = z
  .string({ error: secondStepMessages.codeRequired })
  .check(
    z.trim(),
    z.minLength(1, secondStepMessages.codeRequired),
    z.maxLength(64, secondStepMessages.codeFormat),
  );

/** A sign-in waiting for its second step: the id only the browser holds. */
const FlowSchema = z
  .string({ error: secondStepMessages.flowExpired })
  .check(z.minLength(1), z.maxLength(200));

export const SecondStepFlowSchema = z.object({ flow: FlowSchema });
export const SecondStepCodeSchema = z.object({ flow: FlowSchema, code: CodeSchema });

/** Turning on TOTP in settings: the first code from the app. */
export const TotpCodeSchema = z.object({ code: CodeSchema });

/** What proves a signed-in member is at the keyboard: the current password or a current code. */
export const SecondStepProofSchema = z.object({
  password: z.optional(z.string().check(z.maxLength(PASSWORD_MAX_LENGTH))),
  code: z.optional(z.string().check(z.trim(), z.maxLength(64))),
});
export type SecondStepProof = z.infer<typeof SecondStepProofSchema>;

/** A new TOTP secret, shown once: the QR code (SVG) and the same secret as text. */
export const TotpEnrolmentSchema = z.object({
  secret: z.string(),
  otpauthUrl: z.string(),
  qrSvg: z.string(),
});
export type TotpEnrolment = z.infer<typeof TotpEnrolmentSchema>;

export const RecoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof RecoveryCodesSchema>;

export const TwoStepStatusSchema = z.object({
  /** TOTP is on (a first code confirmed it). */
  totp: z.boolean(),
  recoveryCodesLeft: z.number(),
  /** The account signs in with a password (an account made through single sign-on may have none). */
  hasPassword: z.boolean(),
  /** The team's policy requires a second step for this account. */
  required: z.boolean(),
});
export type TwoStepStatus = z.infer<typeof TwoStepStatusSchema>;

/** The secret grouped in fours, as people copy it into an app by hand. */
export const groupSecret = (secret: string): string => secret.replace(/(.{4})(?=.)/g, '$1 ');

/** A TOTP code is digits only; anything else typed in the code box is taken for a recovery code. */
export const looksLikeTotpCode = (code: string): boolean =>
  new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(code.replace(/\s/g, ''));
