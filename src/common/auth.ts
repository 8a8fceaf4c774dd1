import { z } from 'zod/mini';
import {
  DISPLAY_NAME_MAX_LENGTH,
  EMAIL_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  THUMBNAIL_MAX_BYTES,
} from './limits';
import { messages } from './messages';
import { sniffRasterImage } from './image-sniff';
import { ROLES } from './users';

// zod/mini: the same validation as classic zod with a tree-shakable API, so the browser bundle only
// carries the checks it uses (the first-visit JS budget, docs/benchmarks.md).
export const EmailSchema = z.pipe(
  z
    .string({ error: messages.emailRequired })
    .check(
      z.trim(),
      z.minLength(1, messages.emailRequired),
      z.maxLength(EMAIL_MAX_LENGTH, messages.emailInvalid),
    ),
  z.email({ error: messages.emailInvalid }),
);

export const NewPasswordSchema = z
  .string({ error: messages.passwordRequired })
  .check(
    z.minLength(1, messages.passwordRequired),
    z.minLength(PASSWORD_MIN_LENGTH, messages.passwordWeak),
    z.maxLength(PASSWORD_MAX_LENGTH, messages.passwordTooLong),
  );

/**
 * Characters a display name may not hold: controls, format characters (bidi overrides and isolates,
 * zero-width spaces and joiners, soft hyphen, tags), other default-ignorable ones (Hangul fillers) and
 * line separators. They make a name look like someone else's or reverse the text shown after it.
 * Variation selectors stay: they only pick an emoji's or a character's presentation.
 */
const INVISIBLE_CHARACTER =
  /(?![\uFE00-\uFE0F\u{E0100}-\u{E01EF}])[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{Zl}\p{Zp}]/u;
/** A zero-width joiner between two emoji only builds one emoji (👩‍💻), so it is allowed there. */
const EMOJI_JOINER =
  /(?<=[\p{Extended_Pictographic}\p{Emoji_Modifier}]\uFE0F?)\u200D(?=\p{Extended_Pictographic})/gu;

const hasInvisibleCharacters = (text: string): boolean =>
  INVISIBLE_CHARACTER.test(text.replace(EMOJI_JOINER, ''));

export const DisplayNameSchema = z.string({ error: messages.displayNameRequired }).check(
  z.trim(),
  z.minLength(1, messages.displayNameRequired),
  z.maxLength(DISPLAY_NAME_MAX_LENGTH, messages.displayNameTooLong),
  z.refine((name) => !hasInvisibleCharacters(name), messages.displayNameInvisible),
);

/** The text fields of signup; the thumbnail travels as a file and is checked by `checkThumbnail`. */
export const SignupFieldsSchema = z.object({
  email: EmailSchema,
  password: NewPasswordSchema,
  displayName: DisplayNameSchema,
});
export type SignupFields = z.infer<typeof SignupFieldsSchema>;

export const LoginSchema = z.object({
  email: EmailSchema,
  password: z
    .string({ error: messages.passwordRequired })
    .check(
      z.minLength(1, messages.passwordRequired),
      z.maxLength(PASSWORD_MAX_LENGTH, messages.wrongCredentials),
    ),
});
export type LoginInput = z.infer<typeof LoginSchema>;

export interface ThumbnailFacts {
  /** Size in bytes; undefined when no file was chosen. */
  size: number | undefined;
  /** The first bytes of the file (at least IMAGE_SNIFF_BYTES when the file is that long). */
  head: Uint8Array | undefined;
}

/** The thumbnail rule of docs/product-spec.md#52-signup-thumbnail, by the file's bytes, for the form and the server alike. */
export function checkThumbnail({ size, head }: ThumbnailFacts): string | null {
  if (size === undefined || head === undefined || size === 0) return messages.thumbnailRequired;
  if (sniffRasterImage(head) === null) return messages.thumbnailNotImage;
  if (size > THUMBNAIL_MAX_BYTES) return messages.thumbnailTooLarge;
  return null;
}

/** The signed-in user as auth sees it (docs/product-spec.md#34-auth-user). */
const AuthUserSchema = z.object({
  uid: z.string(),
  email: z.string(),
  displayName: z.string(),
  photoURL: z.string(),
  /** The account's role (docs/decisions/018-team-roles.md); admins see the admin screens. */
  role: z.enum(ROLES),
});
export type AuthUser = z.infer<typeof AuthUserSchema>;

export const AuthResultSchema = z.object({
  user: AuthUserSchema,
  idToken: z.string(),
  /** Seconds until the id token expires. */
  expiresIn: z.number(),
});
export type AuthResult = z.infer<typeof AuthResultSchema>;

/** Ways to give a second step after the password (docs/decisions/064-two-step-sign-in.md). */
const SECOND_STEP_METHODS = ['totp', 'recovery', 'passkey'] as const;
export type SecondStepMethod = (typeof SECOND_STEP_METHODS)[number];

/** The password was right and a second step is due: no session yet, only a 5-minute sign-in `flow`. */
const SecondStepChallengeSchema = z.object({
  secondStep: z.object({
    /** Sent back with the code (POST /api/auth/second-step); valid for 5 minutes. */
    flow: z.string(),
    methods: z.array(z.enum(SECOND_STEP_METHODS)),
    /** The team requires a second step and the account has none yet: set up TOTP within the flow. */
    enrol: z.boolean(),
  }),
});
export type SecondStepChallenge = z.infer<typeof SecondStepChallengeSchema>;

/** What a password login answers: signed in, or a second step to give first. */
export const LoginResultSchema = z.union([AuthResultSchema, SecondStepChallengeSchema]);
export type LoginResult = z.infer<typeof LoginResultSchema>;

export const SessionStateSchema = z.object({ user: z.nullable(AuthUserSchema) });
export type SessionState = z.infer<typeof SessionStateSchema>;

export const IdTokenResultSchema = z.object({ idToken: z.string(), expiresIn: z.number() });
export type IdTokenResult = z.infer<typeof IdTokenResultSchema>;
