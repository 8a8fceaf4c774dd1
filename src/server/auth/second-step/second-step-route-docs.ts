import { z } from 'zod/mini';
import { AuthResultSchema } from '../../../common';
import {
  RecoveryCodesSchema,
  SecondStepCodeSchema,
  SecondStepFlowSchema,
  SecondStepPolicySchema,
  SecondStepProofSchema,
  TotpCodeSchema,
  TotpEnrolmentSchema,
  TwoStepStatusSchema,
} from '../../../common/second-step';
import { describeRoutes, jsonBody } from '../../http/api-docs';
import { byAdmin, onOwnAccount, signInStep } from '../../http/route-doc-builders';
import { MemberParamsSchema } from './second-step-routes';

const EnrolledSchema = z.object({ ...AuthResultSchema.shape, ...RecoveryCodesSchema.shape });

const flowErrors =
  'An unknown, used or expired flow (5 minutes), or one with too many wrong codes, is 401: log in again.';

export const secondStepRouteDocs = describeRoutes([
  signInStep({
    method: 'POST',
    path: '/api/auth/second-step',
    summary: "Completes a password login's second step with a TOTP code or a recovery code",
    description: `\`flow\` is the login's \`secondStep.flow\`. A TOTP code is accepted within one 30-second step either side, each step once; a recovery code once. Wrong codes count against the account's login-failure limit like wrong passwords (429 past it), and 5 end the flow. ${flowErrors} Sets the session cookie.`,
    body: jsonBody(SecondStepCodeSchema),
    response: { status: 200, description: 'Signed in; sets the session cookie', schema: AuthResultSchema },
    errors: ['unauthenticated', 'wrong-credentials'],
  }),
  signInStep({
    method: 'POST',
    path: '/api/auth/second-step/enrol',
    summary: 'Sets up TOTP within a login the team requires a second step for (account without one)',
    description: `A new secret for the flow, as an otpauth:// URL, an SVG QR code and text; asking again replaces it. 403 when the account needs no enrolment. ${flowErrors}`,
    body: jsonBody(SecondStepFlowSchema),
    response: {
      status: 200,
      description: 'The secret to add to an authenticator app',
      schema: TotpEnrolmentSchema,
    },
    errors: ['unauthenticated'],
  }),
  signInStep({
    method: 'POST',
    path: '/api/auth/second-step/enrol/confirm',
    summary:
      "Turns TOTP on with the app's first code and signs in; the recovery codes are in this answer only",
    description: `Wrong codes count like wrong passwords, and 5 end the flow. ${flowErrors}`,
    body: jsonBody(SecondStepCodeSchema),
    response: {
      status: 200,
      description: 'Signed in (sets the session cookie), with 10 one-time recovery codes',
      schema: EnrolledSchema,
    },
    errors: ['unauthenticated', 'wrong-credentials'],
  }),
  onOwnAccount({
    method: 'GET',
    path: '/api/account/two-step',
    summary: 'Whether TOTP is on, recovery codes left, and whether the team requires a second step',
    response: { status: 200, description: 'Two-step sign-in state', schema: TwoStepStatusSchema },
  }),
  onOwnAccount({
    method: 'POST',
    path: '/api/account/two-step/totp',
    summary: 'Starts turning TOTP on: a new secret (QR code and text), shown once',
    description:
      'TOTP stays off until POST /api/account/two-step/totp/confirm gets a right code; asking again replaces the secret. 409 when TOTP is already on.',
    response: {
      status: 200,
      description: 'The secret to add to an authenticator app',
      schema: TotpEnrolmentSchema,
    },
    errors: ['conflict'],
  }),
  onOwnAccount({
    method: 'POST',
    path: '/api/account/two-step/totp/confirm',
    summary: "Turns TOTP on with the app's first code; the recovery codes are in this answer only",
    description:
      '400 for a wrong code (TOTP stays off); 409 when there is no secret to confirm or TOTP is on.',
    body: jsonBody(TotpCodeSchema),
    response: { status: 200, description: '10 one-time recovery codes', schema: RecoveryCodesSchema },
    errors: ['conflict', 'too-many-requests'],
  }),
  onOwnAccount({
    method: 'POST',
    path: '/api/account/two-step/recovery-codes',
    summary: 'Replaces the recovery codes (the old ones stop working); needs the password or a current code',
    description:
      "A wrong password or code is 400 and counts against the account's login-failure limit. 409 when TOTP is off.",
    body: jsonBody(SecondStepProofSchema),
    response: { status: 200, description: '10 new one-time recovery codes', schema: RecoveryCodesSchema },
    errors: ['conflict', 'too-many-requests'],
  }),
  onOwnAccount({
    method: 'POST',
    path: '/api/account/two-step/off',
    summary: 'Turns TOTP off and deletes the recovery codes; needs the password or a current code',
    description:
      "A wrong password or code is 400 and counts against the account's login-failure limit. 409 when TOTP is off.",
    body: jsonBody(SecondStepProofSchema),
    response: { status: 204, description: 'TOTP is off' },
    errors: ['conflict', 'too-many-requests'],
  }),
  byAdmin({
    method: 'POST',
    path: '/api/admin/members/{id}/second-step/reset',
    summary: "Turns a member's TOTP off and deletes their recovery codes, for one who lost both (admins)",
    description:
      "The member's password alone then signs in, or, where the team requires a second step, their next login sets up TOTP again. Passkeys stay. 404 for an unknown or deleted account.",
    params: MemberParamsSchema,
    response: { status: 204, description: 'TOTP is off for the member' },
    errors: ['not-found'],
  }),
  byAdmin({
    method: 'GET',
    path: '/api/admin/second-step-policy',
    summary: 'Who must give a second step at password login (admins)',
    response: { status: 200, description: 'The policy', schema: SecondStepPolicySchema },
  }),
  byAdmin({
    method: 'PUT',
    path: '/api/admin/second-step-policy',
    summary: 'Requires a second step at password login: off, for admins, or for everyone (admins)',
    description:
      'Takes effect at the next login on every instance. An account without TOTP or a passkey then sets up TOTP within its login. Single sign-on is not affected.',
    body: jsonBody(SecondStepPolicySchema),
    response: { status: 200, description: 'The policy', schema: SecondStepPolicySchema },
  }),
]);
