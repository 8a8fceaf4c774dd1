import { z } from 'zod/mini';
import { AuthResultSchema } from '../../common';
import {
  AddPasskeySchema,
  PasskeyAssertionSchema,
  PasskeyListSchema,
  PasskeyOptionsSchema,
  PasskeyParamsSchema,
  PasskeySchema,
  RenamePasskeySchema,
  SecondStepPasskeyOptionsSchema,
} from '../../common/passkeys';
import { describeRoutes, jsonBody } from '../http/api-docs';
import { onOwnPasskeys, signInStep } from '../http/route-doc-builders';

const PasskeyAnswerSchema = z.object({ passkey: PasskeySchema });
const site =
  'The relying party is the host name of PUBLIC_URL (without it, the request’s Host, whose Origin must match it); the answer must come from that origin.';

export const passkeysRouteDocs = describeRoutes([
  onOwnPasskeys({
    method: 'GET',
    path: '/api/account/passkeys',
    summary: "The account's passkeys: name, when added, when last used; and how many one may hold",
    response: { status: 200, description: 'The passkeys', schema: PasskeyListSchema },
  }),
  onOwnPasskeys({
    method: 'POST',
    path: '/api/account/passkeys/options',
    summary: 'Starts adding a passkey: options for navigator.credentials.create() and their flow',
    description: `A discoverable credential, user verification preferred, none of the account's passkeys again. The challenge is used once and expires in 5 minutes. ${site} 409 once the account holds the most passkeys allowed.`,
    response: { status: 200, description: 'The options', schema: PasskeyOptionsSchema },
    errors: ['conflict', 'too-many-requests'],
  }),
  onOwnPasskeys({
    method: 'POST',
    path: '/api/account/passkeys',
    summary: "Adds the passkey the browser made for the flow's challenge, under the member's name for it",
    description:
      '400 when the answer does not verify; 401 when the flow is unknown, used or expired; 409 when the passkey is already added or the account holds the most allowed.',
    body: jsonBody(AddPasskeySchema),
    response: { status: 201, description: 'Added', schema: PasskeyAnswerSchema },
    errors: ['conflict', 'too-many-requests'],
  }),
  onOwnPasskeys({
    method: 'PATCH',
    path: '/api/account/passkeys/{id}',
    summary: 'Renames one of the account’s passkeys',
    params: PasskeyParamsSchema,
    body: jsonBody(RenamePasskeySchema),
    response: { status: 200, description: 'Renamed', schema: PasskeyAnswerSchema },
    errors: ['not-found', 'too-many-requests'],
  }),
  onOwnPasskeys({
    method: 'DELETE',
    path: '/api/account/passkeys/{id}',
    summary: 'Removes one of the account’s passkeys; it signs in no more',
    params: PasskeyParamsSchema,
    response: { status: 204, description: 'Removed' },
    errors: ['not-found', 'too-many-requests'],
  }),
  signInStep({
    method: 'POST',
    path: '/api/auth/passkey/options',
    summary: 'Starts a sign-in with a passkey alone: options for navigator.credentials.get() and their flow',
    description: `No credentials listed: the browser offers the passkeys it holds for this site. User verification required. The challenge is used once and expires in 5 minutes; any instance may take the answer. ${site} Rate-limited per client address.`,
    response: { status: 200, description: 'The options', schema: PasskeyOptionsSchema },
  }),
  signInStep({
    method: 'POST',
    path: '/api/auth/passkey',
    summary: "Signs in with the browser's passkey answer; no second step follows",
    description:
      'Checks the signature with the stored public key, the challenge, origin and RP ID, and the signature counter (one that went backwards is refused), for an active account. Sets the session cookie. 401 when the flow is unknown, used or expired, the passkey is not registered, or it does not verify. Rate-limited per client address.',
    body: jsonBody(PasskeyAssertionSchema),
    response: { status: 200, description: 'Signed in', schema: AuthResultSchema },
    errors: ['unauthenticated'],
  }),
  signInStep({
    method: 'POST',
    path: '/api/auth/second-step/passkey/options',
    summary: "The second step by passkey: options listing the pending member's passkeys",
    description:
      'For the `flow` a password login answered with. 401 when that flow is unknown, used or expired; 404 when its member has no passkey. Rate-limited per client address.',
    body: jsonBody(SecondStepPasskeyOptionsSchema),
    response: { status: 200, description: 'The options', schema: PasskeyOptionsSchema },
    errors: ['unauthenticated', 'not-found'],
  }),
  signInStep({
    method: 'POST',
    path: '/api/auth/second-step/passkey',
    summary: "Finishes a password login's second step with one of the member's passkeys",
    description:
      'Sets the session cookie and uses the flow up. 401 when the flow is unknown, used or expired, or the passkey is not the pending member’s or does not verify. Rate-limited per client address.',
    body: jsonBody(PasskeyAssertionSchema),
    response: { status: 200, description: 'Signed in', schema: AuthResultSchema },
    errors: ['unauthenticated'],
  }),
]);
