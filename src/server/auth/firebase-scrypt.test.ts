import { describe, expect, it } from 'vitest';
import {
  firebasePasswordHash,
  firebaseScrypt,
  needsRehash,
  verifyPassword,
  type FirebaseHashParameters,
} from './passwords';

/**
 * The published example of Firebase's modified scrypt: the README of github.com/firebase/scrypt ('Password
 * Hashing': the sample hash parameters from the console, the exported account user1@test.com with its salt,
 * its password and the expected hash).
 */
const PUBLISHED = {
  signerKey: 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==',
  saltSeparator: 'Bw==',
  rounds: 8,
  memCost: 14,
  salt: '42xEC+ixf3L2lw==',
  password: 'user1password',
  passwordHash: 'lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==',
} as const;

const parameters: FirebaseHashParameters = {
  signerKey: Buffer.from(PUBLISHED.signerKey, 'base64'),
  saltSeparator: Buffer.from(PUBLISHED.saltSeparator, 'base64'),
  rounds: PUBLISHED.rounds,
  memCost: PUBLISHED.memCost,
};
const salt = Buffer.from(PUBLISHED.salt, 'base64');
const publishedHash = Buffer.from(PUBLISHED.passwordHash, 'base64');
const stored = firebasePasswordHash(parameters, salt, publishedHash);

describe("Firebase's modified scrypt", { timeout: 30_000 }, () => {
  it("gives the published vector's hash for its password", async () => {
    const hash = await firebaseScrypt(PUBLISHED.password, salt, parameters);
    expect(hash.toString('base64')).toBe(PUBLISHED.passwordHash);
  });

  it('verifies the published account with its password, and not with a wrong one', async () => {
    expect(stored.startsWith('firebase-scrypt$8$14$')).toBe(true);
    expect(await verifyPassword(PUBLISHED.password, stored)).toBe(true);
    expect(await verifyPassword('user1password ', stored)).toBe(false);
    expect(await verifyPassword('User1password', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('is false with another signer key or salt separator (the project parameters matter)', async () => {
    const otherKey = Buffer.from(parameters.signerKey);
    otherKey[0] = (otherKey[0] ?? 0) ^ 0x01;
    const withOtherKey = firebasePasswordHash({ ...parameters, signerKey: otherKey }, salt, publishedHash);
    expect(await verifyPassword(PUBLISHED.password, withOtherKey)).toBe(false);
    const withOtherSeparator = firebasePasswordHash(
      { ...parameters, saltSeparator: Buffer.from('Cw==', 'base64') },
      salt,
      publishedHash,
    );
    expect(await verifyPassword(PUBLISHED.password, withOtherSeparator)).toBe(false);
  });

  it.each([
    ['no hash', 'firebase-scrypt$8$14$Bw$a2V5$c2FsdA$'],
    ['rounds out of range', stored.replace('firebase-scrypt$8$', 'firebase-scrypt$99$')],
    ['mem cost out of range', stored.replace('firebase-scrypt$8$14$', 'firebase-scrypt$8$40$')],
    ['a truncated hash', stored.slice(0, -10)],
  ])('is false for a malformed stored string: %s', async (_label, malformed) => {
    await expect(verifyPassword(PUBLISHED.password, malformed)).resolves.toBe(false);
  });

  it('asks for a re-hash of an imported hash, not of ours', () => {
    expect(needsRehash(stored)).toBe(true);
    expect(needsRehash('scrypt$32768$8$1$c2FsdA$aGFzaA')).toBe(false);
  });
});
