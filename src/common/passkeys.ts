import { z } from 'zod/mini';

/**
 * Passkeys (WebAuthn; issue 29, point 2; docs/decisions/065-passkeys.md): the request and answer shapes,
 * their limits and their messages. Imported by path, never through `common/index.ts`, so only the settings
 * and login screens' chunks and the server carry it (the first-visit JS budget, docs/benchmarks.md).
 */

/** What the browser shows as the site a passkey belongs to. */
export const RELYING_PARTY_NAME = 'The Dojo';
const PASSKEY_NAME_MAX_LENGTH = 64;
/** Passkeys one member may hold: enough for every device and a spare key or two, not an unbounded list. */
export const PASSKEYS_PER_MEMBER = 10;
/** How long a challenge waits for the browser's answer; the ceremony's own timeout is the same. */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60 * 1000;

export const passkeyMessages = {
  nameRequired: 'Name the passkey, e.g. after the device that holds it.',
  nameTooLong: `A passkey's name is at most ${PASSKEY_NAME_MAX_LENGTH} characters.`,
  tooMany: `You already have ${PASSKEYS_PER_MEMBER} passkeys. Remove one you no longer use first.`,
  notFound: 'This passkey does not exist or was already removed.',
  flowExpired: 'This passkey request has expired or was already used. Please try again.',
  responseInvalid: 'The browser sent no usable passkey answer. Please try again.',
  notVerified: 'This passkey could not be verified. Please try again.',
  unknownPasskey:
    'This passkey is not registered here. Sign in another way, then add it in Account settings.',
  alreadyAdded: 'This passkey is already added to your account.',
  wrongSite:
    'This passkey request did not come from this site’s address. Open the app at its usual address and try again.',
  browserSessionOnly: 'Passkeys are managed from a signed-in browser, not with a token.',
  notForThisAccount:
    'This passkey belongs to another account. Use a passkey of the account you are signing in to.',
  cancelled: 'No passkey was used. You can try again, or sign in another way.',
  unsupported: 'This browser cannot use passkeys.',
} as const;

const FlowSchema = z
  .string({ error: passkeyMessages.flowExpired })
  .check(z.minLength(1, passkeyMessages.flowExpired), z.maxLength(200, passkeyMessages.flowExpired));

const PasskeyNameSchema = z
  .string({ error: passkeyMessages.nameRequired })
  .check(
    z.trim(),
    z.minLength(1, passkeyMessages.nameRequired),
    z.maxLength(PASSKEY_NAME_MAX_LENGTH, passkeyMessages.nameTooLong),
  );

const Base64UrlSchema = z
  .string({ error: passkeyMessages.responseInvalid })
  .check(
    z.minLength(1, passkeyMessages.responseInvalid),
    z.regex(/^[A-Za-z0-9_-]+$/, passkeyMessages.responseInvalid),
  );

/**
 * What `navigator.credentials.create()` / `.get()` gave, as @simplewebauthn/browser serializes it
 * (RegistrationResponseJSON / AuthenticationResponseJSON). Only the outline is checked here; the WebAuthn
 * library checks every byte of it.
 */
const CredentialResponseSchema = z.looseObject({
  id: Base64UrlSchema,
  rawId: Base64UrlSchema,
  type: z.literal('public-key', { error: passkeyMessages.responseInvalid }),
  response: z.looseObject({ clientDataJSON: Base64UrlSchema }),
  clientExtensionResults: z._default(z.record(z.string(), z.unknown()), {}),
});

export const PasskeyParamsSchema = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(1024)),
});

export const RenamePasskeySchema = z.object({ name: PasskeyNameSchema });

/** Adding a passkey: the challenge's flow, the member's name for it, and the browser's answer. */
export const AddPasskeySchema = z.object({
  flow: FlowSchema,
  name: PasskeyNameSchema,
  response: CredentialResponseSchema,
});
export type AddPasskeyInput = z.infer<typeof AddPasskeySchema>;

/** Signing in with a passkey (alone, or as the second step): the challenge's flow and the browser's answer. */
export const PasskeyAssertionSchema = z.object({ flow: FlowSchema, response: CredentialResponseSchema });
export type PasskeyAssertionInput = z.infer<typeof PasskeyAssertionSchema>;

/** The password sign-in waiting for its second step (its flow, as the login answered it). */
export const SecondStepPasskeyOptionsSchema = z.object({ flow: FlowSchema });

export const PasskeySchema = z.object({
  /** The credential id (base64url): what rename and remove name. */
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  /** When it last signed in; null if never. */
  lastUsedAt: z.nullable(z.string()),
});
export type Passkey = z.infer<typeof PasskeySchema>;

export const PasskeyListSchema = z.object({ passkeys: z.array(PasskeySchema), max: z.number() });
export type PasskeyList = z.infer<typeof PasskeyListSchema>;

/** The WebAuthn options (PublicKeyCredentialCreationOptionsJSON / RequestOptionsJSON) and their flow. */
export const PasskeyOptionsSchema = z.object({
  /** Sent back with the browser's answer; the challenge is used once and expires in 5 minutes. */
  flow: z.string(),
  options: z.record(z.string(), z.unknown()),
});

/** A name for a new passkey from the browser's User-Agent ("Chrome on Linux"), which the member may change. */
export function defaultPasskeyName(userAgent: string): string {
  const browser =
    [
      ['Edg/', 'Edge'],
      ['OPR/', 'Opera'],
      ['Firefox/', 'Firefox'],
      ['Chrome/', 'Chrome'],
      ['Safari/', 'Safari'],
    ].find(([mark]) => userAgent.includes(mark as string))?.[1] ?? 'Browser';
  const system =
    [
      ['iPhone', 'iPhone'],
      ['iPad', 'iPad'],
      ['Android', 'Android'],
      ['CrOS', 'ChromeOS'],
      ['Mac OS X', 'macOS'],
      ['Windows', 'Windows'],
      ['Linux', 'Linux'],
    ].find(([mark]) => userAgent.includes(mark as string))?.[1] ?? undefined;
  return system ? `${browser} on ${system}` : browser;
}
