import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { groupSecret, looksLikeTotpCode, RECOVERY_CODE_COUNT } from '../../../common/second-step';
import { hashRecoveryCode, matchingTotpStep, newRecoveryCodes, newTotpSecret } from './totp';

const STEP_MS = 30_000;
/** The middle of a step: a code for "now ± one step" can never slip into another step while the test runs. */
const NOW = 1_795_000_000_000 + STEP_MS / 2;
const codeAt = (secret: string, timestamp: number) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp });

describe('TOTP', () => {
  it('makes a 160-bit base32 secret, its otpauth URL and an SVG QR code', async () => {
    const { secret, otpauthUrl, qrSvg } = await newTotpSecret('ada@example.com');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toBe(
      `otpauth://totp/The%20Dojo:ada%40example.com?issuer=The%20Dojo&secret=${secret}&algorithm=SHA1&digits=6&period=30`,
    );
    expect(qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    expect((await newTotpSecret('ada@example.com')).secret).not.toBe(secret);
  });

  it('accepts a code for this step or one either side, and names the step it matched', async () => {
    const { secret } = await newTotpSecret('ada@example.com');
    const step = Math.floor(NOW / STEP_MS);
    expect(await matchingTotpStep(secret, codeAt(secret, NOW), NOW)).toBe(step);
    expect(await matchingTotpStep(secret, codeAt(secret, NOW - STEP_MS), NOW)).toBe(step - 1);
    expect(await matchingTotpStep(secret, codeAt(secret, NOW + STEP_MS), NOW)).toBe(step + 1);
    expect(await matchingTotpStep(secret, codeAt(secret, NOW + 2 * STEP_MS), NOW)).toBeNull();
    expect(await matchingTotpStep(secret, codeAt(secret, NOW - 2 * STEP_MS), NOW)).toBeNull();
    const spaced = codeAt(secret, NOW).replace(/^(\d{3})/, '$1 ');
    expect(await matchingTotpStep(secret, spaced, NOW)).toBe(step);
  });
});

describe('recovery codes', () => {
  it('are ten distinct codes without look-alike characters', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
  });

  it('hash the same whatever the case, spaces or dash, and differently for another code', () => {
    expect(hashRecoveryCode('K3MZQ 7hwpa')).toBe(hashRecoveryCode('k3mzq-7hwpa'));
    expect(hashRecoveryCode('k3mzq7hwpa')).toBe(hashRecoveryCode('k3mzq-7hwpa'));
    expect(hashRecoveryCode('k3mzq-7hwpb')).not.toBe(hashRecoveryCode('k3mzq-7hwpa'));
  });
});

describe('shared rules', () => {
  it('groups a secret in fours and tells a TOTP code from a recovery code', () => {
    expect(groupSecret('ABCDEFGHIJ')).toBe('ABCD EFGH IJ');
    expect(looksLikeTotpCode('123456')).toBe(true);
    expect(looksLikeTotpCode('123 456')).toBe(true);
    expect(looksLikeTotpCode('12345')).toBe(false);
    expect(looksLikeTotpCode('k3mzq-7hwpa')).toBe(false);
  });
});
