import { describe, it, expect } from 'vitest';
import { hashPassword, verifyPassword } from './passwords';

// scrypt at N=2^15 takes tens of milliseconds per call; hash once and reuse where possible.
const PASSWORD = 'correct horse battery staple';
const stored = hashPassword(PASSWORD);

describe('hashPassword', { timeout: 30_000 }, () => {
  it('produces scrypt$N$r$p$salt$hash', async () => {
    const hash = await stored;
    expect(hash.startsWith('scrypt$')).toBe(true);
    const parts = hash.split('$');
    expect(parts).toHaveLength(6);
    expect(parts.slice(1, 4).map(Number)).toEqual([32_768, 8, 1]);
    expect(Buffer.from(parts[4] ?? '', 'base64url')).toHaveLength(16);
    expect(Buffer.from(parts[5] ?? '', 'base64url')).toHaveLength(32);
  });

  it('salts: the same password hashes differently twice', async () => {
    const [first, second] = await Promise.all([hashPassword(PASSWORD), hashPassword(PASSWORD)]);
    expect(first).not.toBe(second);
    expect(first.split('$')[4]).not.toBe(second.split('$')[4]);
    // …and both still verify.
    expect(await verifyPassword(PASSWORD, first)).toBe(true);
    expect(await verifyPassword(PASSWORD, second)).toBe(true);
  });
});

describe('verifyPassword', { timeout: 30_000 }, () => {
  it('is true for the right password', async () => {
    expect(await verifyPassword(PASSWORD, await stored)).toBe(true);
  });

  it('is false for a wrong password', async () => {
    expect(await verifyPassword('correct horse battery stapler', await stored)).toBe(false);
    expect(await verifyPassword('', await stored)).toBe(false);
  });

  it('is case-sensitive', async () => {
    expect(await verifyPassword(PASSWORD.toUpperCase(), await stored)).toBe(false);
  });

  it('is false when the stored hash has been tampered with', async () => {
    const parts = (await stored).split('$');
    const hash = Buffer.from(parts[5] ?? '', 'base64url');
    hash[0] = (hash[0] ?? 0) ^ 0xff;
    parts[5] = hash.toString('base64url');
    expect(await verifyPassword(PASSWORD, parts.join('$'))).toBe(false);
  });

  it.each([
    ['an empty string', ''],
    ['garbage', 'not-a-hash'],
    ['another scheme', 'bcrypt$2b$10$abcdefghijklmnopqrstuv'],
    ['a missing salt and hash', 'scrypt$32768$8$1'],
    ['empty fields', 'scrypt$$$$$'],
    ['an empty hash', 'scrypt$32768$8$1$c2FsdHNhbHRzYWx0c2FsdA$'],
    ['a truncated hash', 'scrypt$32768$8$1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaA'],
  ])('is false for a malformed stored string: %s', async (_label, malformed) => {
    await expect(verifyPassword(PASSWORD, malformed)).resolves.toBe(false);
  });

  it('treats composed and decomposed é as the same password (NFC)', async () => {
    const composed = 'caf\u00e9-password';
    const decomposed = 'cafe\u0301-password';
    expect(composed).not.toBe(decomposed);
    const hash = await hashPassword(composed);
    expect(await verifyPassword(decomposed, hash)).toBe(true);
    expect(await verifyPassword(composed, hash)).toBe(true);
    expect(await verifyPassword('cafe-password', hash)).toBe(false);
  });
});
