import { createHash, randomBytes } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '../../../common/second-step';

/**
 * TOTP (RFC 6238) through `otpauth`, and the QR code through `qrcode`; both are imported on first use so an
 * idle server never loads them (the memory budget, docs/benchmarks.md).
 */

const ISSUER = 'The Dojo';
const PERIOD_SECONDS = 30;
/** One step either side: a phone clock a little off, or a code typed as it turned over. */
const WINDOW_STEPS = 1;

const totpFor = async (secret: string, label: string) => {
  const { Secret, TOTP } = await import('otpauth');
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
};

/** A new 160-bit secret (RFC 4226's recommended length), base32, its otpauth:// URL and that URL as an SVG QR code. */
export async function newTotpSecret(
  label: string,
): Promise<{ secret: string; otpauthUrl: string; qrSvg: string }> {
  const { Secret } = await import('otpauth');
  const secret = new Secret({ size: 20 }).base32;
  const otpauthUrl = (await totpFor(secret, label)).toString();
  const qrcode = (await import('qrcode')).default;
  const qrSvg = await qrcode.toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret, otpauthUrl, qrSvg };
}

/**
 * The time step `code` is right for, within one step of `now`, or null. The caller accepts each step once
 * (`claimTotpStep`), so a code seen over a shoulder is useless once it has been used.
 */
export async function matchingTotpStep(
  secret: string,
  code: string,
  now = Date.now(),
): Promise<number | null> {
  const token = code.replace(/\s/g, '');
  const delta = (await totpFor(secret, '')).validate({ token, timestamp: now, window: WINDOW_STEPS });
  if (delta === null) return null;
  return Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
}

/** Crockford-like alphabet without look-alikes (no 0/o, 1/l/i): easy to read off paper. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten codes like `k3mzq-7hwpa`: 50 random bits each, shown once. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = randomBytes(10);
    const chars = Array.from(bytes, (byte) => RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/**
 * What is stored of a recovery code: sha256 of the code without case, spaces or dashes. 50 random bits is
 * beyond guessing at the login's per-account limit, so a slow hash would add nothing.
 */
export const hashRecoveryCode = (code: string): string =>
  createHash('sha256')
    .update(`recovery:${code.toLowerCase().replace(/[\s-]/g, '')}`)
    .digest('base64url');
