import { describe, it, expect } from 'vitest';
import { checkThumbnail, LoginSchema, SignupFieldsSchema } from './auth';
import { THUMBNAIL_MAX_BYTES } from './limits';
import { messages } from './messages';

const PNG_HEAD = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52,
]);
const TEXT_HEAD = new TextEncoder().encode('hello, this is not an image');

/** The messages of one field after parsing, in order. */
function fieldMessages(
  result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } },
  field: string,
): string[] {
  return (result.error?.issues ?? [])
    .filter((issue) => issue.path[0] === field)
    .map((issue) => issue.message);
}

const validSignup = { email: 'mario@example.com', password: 'correct horse', displayName: 'Mario' };

describe('checkThumbnail', () => {
  it('uses the spec’s exact wording for each of the three problems', () => {
    expect(checkThumbnail({ size: undefined, head: undefined })).toBe('Please select a file');
    expect(checkThumbnail({ size: 20, head: TEXT_HEAD })).toBe('Selected file must be an image');
    expect(checkThumbnail({ size: THUMBNAIL_MAX_BYTES + 1, head: PNG_HEAD })).toBe(
      'Image file size must be less than 100kb',
    );
  });

  it('asks for a file when none was chosen', () => {
    expect(checkThumbnail({ size: undefined, head: undefined })).toBe(messages.thumbnailRequired);
  });

  it('asks for a file when the size is known but the head is missing', () => {
    expect(checkThumbnail({ size: 500, head: undefined })).toBe(messages.thumbnailRequired);
  });

  it('asks for a file when the file is empty', () => {
    expect(checkThumbnail({ size: 0, head: new Uint8Array(0) })).toBe(messages.thumbnailRequired);
  });

  it('refuses bytes that are not a raster image', () => {
    expect(checkThumbnail({ size: TEXT_HEAD.length, head: TEXT_HEAD })).toBe(messages.thumbnailNotImage);
  });

  it('refuses SVG (not a raster image) even though browsers call it image/svg+xml', () => {
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>');
    expect(checkThumbnail({ size: svg.length, head: svg })).toBe(messages.thumbnailNotImage);
  });

  it('refuses an image one byte over the limit (100001 bytes)', () => {
    expect(checkThumbnail({ size: 100_001, head: PNG_HEAD })).toBe(messages.thumbnailTooLarge);
  });

  it('accepts an image of exactly 100000 bytes', () => {
    expect(checkThumbnail({ size: 100_000, head: PNG_HEAD })).toBe(null);
  });

  it('accepts a small image', () => {
    expect(checkThumbnail({ size: 1234, head: PNG_HEAD })).toBe(null);
  });

  it('reports "not an image" before "too large" for a big non-image', () => {
    expect(checkThumbnail({ size: 5_000_000, head: TEXT_HEAD })).toBe(messages.thumbnailNotImage);
  });
});

describe('SignupFieldsSchema', () => {
  it('accepts valid fields', () => {
    expect(SignupFieldsSchema.safeParse(validSignup).success).toBe(true);
  });

  it('trims the display name and the email', () => {
    const result = SignupFieldsSchema.parse({
      ...validSignup,
      email: '  mario@example.com \t',
      displayName: '  Mario Rossi  ',
    });
    expect(result.email).toBe('mario@example.com');
    expect(result.displayName).toBe('Mario Rossi');
  });

  it('does not trim the password', () => {
    expect(SignupFieldsSchema.parse({ ...validSignup, password: '  spaced  ' }).password).toBe('  spaced  ');
  });

  it('rejects a blank display name with displayNameRequired', () => {
    const result = SignupFieldsSchema.safeParse({ ...validSignup, displayName: '   ' });
    expect(result.success).toBe(false);
    expect(fieldMessages(result, 'displayName')).toEqual([messages.displayNameRequired]);
  });

  it('rejects a missing display name with displayNameRequired', () => {
    const result = SignupFieldsSchema.safeParse({ email: validSignup.email, password: validSignup.password });
    expect(fieldMessages(result, 'displayName')[0]).toBe(messages.displayNameRequired);
  });

  it.each([
    ['a control character', 'Mario\u0007'],
    ['a tab inside the name', 'Ma\trio'],
    ['a right-to-left override', 'Mario\u202Egpj.exe'],
    ['a bidi isolate', 'Mario\u2066admin\u2069'],
    ['a zero-width space', 'Ma\u200Brio'],
    ['a zero-width joiner between letters', 'Ma\u200Drio'],
    ['a byte-order mark inside the name', 'Ma\uFEFFrio'],
    ['a soft hyphen', 'Ma\u00ADrio'],
    ['a line separator', 'Mario\u2028Rossi'],
    ['a Hangul filler (renders as nothing)', '\u3164'],
  ])('rejects a display name with %s', (_what, displayName) => {
    const result = SignupFieldsSchema.safeParse({ ...validSignup, displayName });
    expect(result.success).toBe(false);
    expect(fieldMessages(result, 'displayName')).toEqual([messages.displayNameInvisible]);
  });

  it.each([
    ['accents and other scripts', 'José Núñez 李小龍 Влад'],
    ['right-to-left text', 'مريم'],
    ['an emoji with a variation selector', 'Mario ❤️'],
    ['an emoji built with zero-width joiners', 'Mario 👩🏽‍💻 👨‍👩‍👧'],
  ])('accepts a display name with %s', (_what, displayName) => {
    expect(SignupFieldsSchema.safeParse({ ...validSignup, displayName }).success).toBe(true);
  });

  it('rejects a malformed email with emailInvalid', () => {
    for (const email of ['mario', 'mario@', '@example.com', 'mario@@example.com', 'mario example@x.com']) {
      const result = SignupFieldsSchema.safeParse({ ...validSignup, email });
      expect(result.success, email).toBe(false);
      expect(fieldMessages(result, 'email'), email).toEqual([messages.emailInvalid]);
    }
  });

  it('rejects an empty email with emailRequired (not emailInvalid)', () => {
    const result = SignupFieldsSchema.safeParse({ ...validSignup, email: '' });
    expect(fieldMessages(result, 'email')).toEqual([messages.emailRequired]);
  });

  it('rejects a whitespace-only email with emailRequired', () => {
    const result = SignupFieldsSchema.safeParse({ ...validSignup, email: '   ' });
    expect(fieldMessages(result, 'email')).toEqual([messages.emailRequired]);
  });

  it('rejects a 7-character password with passwordWeak', () => {
    const result = SignupFieldsSchema.safeParse({ ...validSignup, password: '1234567' });
    expect(result.success).toBe(false);
    expect(fieldMessages(result, 'password')).toEqual([messages.passwordWeak]);
  });

  it('accepts an 8-character password', () => {
    const result = SignupFieldsSchema.safeParse({ ...validSignup, password: '12345678' });
    expect(result.success).toBe(true);
  });

  it('reports passwordRequired first for an empty password', () => {
    const result = SignupFieldsSchema.safeParse({ ...validSignup, password: '' });
    expect(fieldMessages(result, 'password')[0]).toBe(messages.passwordRequired);
  });

  it('reports every bad field at once', () => {
    const result = SignupFieldsSchema.safeParse({ email: 'x', password: 'short', displayName: '' });
    expect(fieldMessages(result, 'email')[0]).toBe(messages.emailInvalid);
    expect(fieldMessages(result, 'password')[0]).toBe(messages.passwordWeak);
    expect(fieldMessages(result, 'displayName')[0]).toBe(messages.displayNameRequired);
  });
});

describe('LoginSchema', () => {
  it('rejects an empty password with passwordRequired', () => {
    const result = LoginSchema.safeParse({ email: 'mario@example.com', password: '' });
    expect(result.success).toBe(false);
    expect(fieldMessages(result, 'password')).toEqual([messages.passwordRequired]);
  });

  it('accepts a short password (strength is only checked at signup)', () => {
    const result = LoginSchema.safeParse({ email: 'mario@example.com', password: 'x' });
    expect(result.success).toBe(true);
  });

  it('trims the email', () => {
    expect(LoginSchema.parse({ email: ' mario@example.com ', password: 'x' }).email).toBe(
      'mario@example.com',
    );
  });

  it('rejects an empty email with emailRequired', () => {
    const result = LoginSchema.safeParse({ email: '', password: 'whatever1' });
    expect(fieldMessages(result, 'email')).toEqual([messages.emailRequired]);
  });
});
