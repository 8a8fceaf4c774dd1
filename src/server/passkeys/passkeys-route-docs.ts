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

const PasskeyAnswerSchema = z.object({ passkey: PasskeySchema });
const site =
  'The relying party is the host name of PUBLIC_URL (without it, the request’s Host, whose Origin must match it); the answer must come from that origin.';

export const passkeysRouteDocs = describeRoutes([
  {
    method: 'GET',
    path: '/api/account/passkeys',
    tag: 'Account',
    summary: "The account's passkeys: name, when added, when last used; and how many one may hold",
    caller: 'member',
    proof: 'session-cookie',
    response: { status: 200, description: 'The passkeys', schema: PasskeyListSchema },
    errors: ['forbidden'],
  },
  {
    method: 'POST',
    path: '/api/account/passkeys/options',
    tag: 'Account',
    summary: 'Starts adding a passkey: options for navigator.credentials.create() and their flow',
    description: `A discoverable credential, user verification preferred, none of the account's passkeys again. The challenge is used once and expires in 5 minutes. ${site} 409 once the account holds the most passkeys allowed.`,
    caller: 'member',
    proof: 'session-cookie',
    response: { status: 200, description: 'The options', schema: PasskeyOptionsSchema },
    errors: ['forbidden', 'conflict', 'too-many-requests'],
  },
  {
    method: 'POST',
    path: '/api/account/passkeys',
    tag: 'Account',
    summary: "Adds the passkey the browser made for the flow's challenge, under the member's name for it",
    description:
      '400 when the answer does not verify; 401 when the flow is unknown, used or expired; 409 when the passkey is already added or the account holds the most allowed.',
    caller: 'member',
    proof: 'session-cookie',
    body: jsonBody(AddPasskeySchema),
    response: { status: 201, description: 'Added', schema: PasskeyAnswerSchema },
    errors: ['forbidden', 'conflict', 'too-many-requests'],
  },
  {
    method: 'PATCH',
    path: '/api/account/passkeys/{id}',
    tag: 'Account',
    summary: 'Renames one of the account’s passkeys',
    caller: 'member',
    proof: 'session-cookie',
    params: PasskeyParamsSchema,
    body: jsonBody(RenamePasskeySchema),
    response: { status: 200, description: 'Renamed', schema: PasskeyAnswerSchema },
    errors: ['forbidden', 'not-found', 'too-many-requests'],
  },
  {
    method: 'DELETE',
    path: '/api/account/passkeys/{id}',
    tag: 'Account',
    summary: 'Removes one of the account’s passkeys; it signs in no more',
    caller: 'member',
    proof: 'session-cookie',
    params: PasskeyParamsSchema,
    response: { status: 204, description: 'Removed' },
    errors: ['forbidden', 'not-found', 'too-many-requests'],
  },
  {
    method: 'POST',
    path: '/api/auth/passkey/options',
    tag: 'Auth',
    summary: 'Starts a sign-in with a passkey alone: options for navigator.credentials.get() and their flow',
    description: `No credentials listed: the browser offers the passkeys it holds for this site. User verification required. The challenge is used once and expires in 5 minutes; any instance may take the answer. ${site} Rate-limited per client address.`,
    caller: 'anyone',
    response: { status: 200, description: 'The options', schema: PasskeyOptionsSchema },
    errors: ['forbidden', 'too-many-requests'],
  },
  {
    method: 'POST',
    path: '/api/auth/passkey',
    tag: 'Auth',
    summary: "Signs in with the browser's passkey answer; no second step follows",
    description:
      'Checks the signature with the stored public key, the challenge, origin and RP ID, and the signature counter (one that went backwards is refused), for an active account. Sets the session cookie. 401 when the flow is unknown, used or expired, the passkey is not registered, or it does not verify. Rate-limited per client address.',
    caller: 'anyone',
    body: jsonBody(PasskeyAssertionSchema),
    response: { status: 200, description: 'Signed in', schema: AuthResultSchema },
    errors: ['unauthenticated', 'forbidden', 'too-many-requests'],
  },
  {
    method: 'POST',
    path: '/api/auth/second-step/passkey/options',
    tag: 'Auth',
    summary: "The second step by passkey: options listing the pending member's passkeys",
    description:
      'For the `flow` a password login answered with. 401 when that flow is unknown, used or expired; 404 when its member has no passkey. Rate-limited per client address.',
    caller: 'anyone',
    body: jsonBody(SecondStepPasskeyOptionsSchema),
    response: { status: 200, description: 'The options', schema: PasskeyOptionsSchema },
    errors: ['unauthenticated', 'forbidden', 'not-found', 'too-many-requests'],
  },
  {
    method: 'POST',
    path: '/api/auth/second-step/passkey',
    tag: 'Auth',
    summary: "Finishes a password login's second step with one of the member's passkeys",
    description:
      'Sets the session cookie and uses the flow up. 401 when the flow is unknown, used or expired, or the passkey is not the pending member’s or does not verify. Rate-limited per client address.',
    caller: 'anyone',
    body: jsonBody(PasskeyAssertionSchema),
    response: { status: 200, description: 'Signed in', schema: AuthResultSchema },
    errors: ['unauthenticated', 'forbidden', 'too-many-requests'],
  },
]);
