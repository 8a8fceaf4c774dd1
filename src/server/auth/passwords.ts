import { createCipheriv, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// scrypt with N=2^15, r=8, p=1: OWASP's recommended minimum (its memory cost is 128 · N · r bytes per hash).
const PARAMS = { N: 32_768, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const MAX_MEMORY = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { ...options, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** `scrypt$N$r$p$salt$hash`, so parameters can be raised later without breaking old hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join(
    '$',
  );
}

/**
 * Whether `password` is the one `stored` was made from: our own `scrypt$…`, or `firebase-scrypt$…` for an
 * account imported from Firebase and not signed in since (docs/decisions/080-moving-in-from-firebase.md).
 * Either way the hashes are compared in constant time; anything else is false.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme] = stored.split('$', 1);
  if (scheme === FIREBASE_SCHEME) return verifyFirebasePassword(password, stored);
  const [, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** True when `stored` is not our current scheme: the login that proves the password re-hashes it. */
export const needsRehash = (stored: string): boolean => stored.split('$', 1)[0] !== 'scrypt';

const FIREBASE_SCHEME = 'firebase-scrypt';
const TIME_FLOOR_SALT = randomBytes(16);

/**
 * A Firebase project's password hash parameters, as its console shows them (Authentication, Users, 'Password
 * hash parameters'): `base64_signer_key`, `base64_salt_separator`, `rounds`, `mem_cost`.
 */
export interface FirebaseHashParameters {
  signerKey: Buffer;
  saltSeparator: Buffer;
  rounds: number;
  memCost: number;
}

/** The ranges Firebase's own `auth:import` accepts for its scrypt: they also bound the work one login costs. */
export const FIREBASE_ROUNDS = { min: 1, max: 8 } as const;
export const FIREBASE_MEM_COST = { min: 1, max: 14 } as const;

const withinRange = (value: number, range: { min: number; max: number }): boolean =>
  Number.isInteger(value) && value >= range.min && value <= range.max;

/**
 * Firebase Auth's modified scrypt (github.com/firebase/scrypt): scrypt of the password with the user's salt
 * followed by the project's salt separator (N = 2^memCost, r = rounds, p = 1, 64 bytes), whose first 32
 * bytes are the AES-256-CTR key (zero IV) that encrypts the project's signer key; that ciphertext is the
 * stored hash. The password's bytes are taken as typed (Firebase does not normalise them).
 */
export function firebaseScrypt(
  password: string,
  salt: Buffer,
  { signerKey, saltSeparator, rounds, memCost }: FirebaseHashParameters,
): Promise<Buffer> {
  if (!withinRange(rounds, FIREBASE_ROUNDS) || !withinRange(memCost, FIREBASE_MEM_COST)) {
    return Promise.reject(new RangeError('Firebase scrypt parameters out of range'));
  }
  return new Promise((resolve, reject) =>
    scrypt(
      Buffer.from(password, 'utf8'),
      Buffer.concat([salt, saltSeparator]),
      64,
      { N: 2 ** memCost, r: rounds, p: 1, maxmem: MAX_MEMORY },
      (error, derived) => {
        if (error) return reject(error);
        const cipher = createCipheriv('aes-256-ctr', derived.subarray(0, 32), Buffer.alloc(16));
        resolve(Buffer.concat([cipher.update(signerKey), cipher.final()]));
      },
    ),
  );
}

/**
 * `firebase-scrypt$rounds$memCost$saltSeparator$signerKey$salt$hash` (base64url): an exported account's hash
 * and salt with the project's parameters, so that the account's first login can check it on its own.
 */
export function firebasePasswordHash(parameters: FirebaseHashParameters, salt: Buffer, hash: Buffer): string {
  const { rounds, memCost, saltSeparator, signerKey } = parameters;
  return [FIREBASE_SCHEME, rounds, memCost, saltSeparator, signerKey, salt, hash]
    .map((part) => (Buffer.isBuffer(part) ? part.toString('base64url') : String(part)))
    .join('$');
}

async function verifyFirebasePassword(password: string, stored: string): Promise<boolean> {
  const [, rounds, memCost, saltSeparator, signerKey, salt, hash] = stored.split('$');
  if (!signerKey || !salt || !hash || saltSeparator === undefined) return false;
  const expected = Buffer.from(hash, 'base64url');
  const parameters: FirebaseHashParameters = {
    signerKey: Buffer.from(signerKey, 'base64url'),
    saltSeparator: Buffer.from(saltSeparator, 'base64url'),
    rounds: Number(rounds),
    memCost: Number(memCost),
  };
  if (!withinRange(parameters.rounds, FIREBASE_ROUNDS) || !withinRange(parameters.memCost, FIREBASE_MEM_COST))
    return false;
  // One of our own hashes alongside (libuv runs both at once): an imported account not signed in since
  // answers no faster than an unknown email, whose decoy is ours (Firebase's parameters cost about half).
  const [actual] = await Promise.all([
    firebaseScrypt(password, Buffer.from(salt, 'base64url'), parameters),
    derive(password, TIME_FLOOR_SALT, PARAMS),
  ]);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash to compare against when the email is unknown, so both paths take the same time. */
let decoyHash: Promise<string> | undefined;
export const getDecoyHash = (): Promise<string> =>
  (decoyHash ??= hashPassword(randomBytes(12).toString('hex')));
