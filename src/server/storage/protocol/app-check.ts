import { randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { getOrCreateSecretKey } from '../../db/settings-repository';

/**
 * Decides whether an `X-Firebase-AppCheck` token is valid (docs/decisions/004-app-check.md). A real
 * attestation provider (reCAPTCHA, Play Integrity, App Attest) can implement this later; callers do not
 * change.
 */
export interface AppCheckVerifier {
  verify(token: string): Promise<boolean>;
}

export interface AppCheckIssuer {
  mint(): Promise<{ token: string; expiresIn: number }>;
}

const KEY_SETTING = 'app_check_hmac_key';
const ISSUER = 'the-dojo';
const AUDIENCE = 'the-dojo/app-check';
const APP_CHECK_TOKEN_TTL_SECONDS = 3600;

/**
 * The default: HS256 tokens this server mints for its own web app at `POST /api/app-check/token`. The
 * key lives in the `settings` table, like the id-token key, so every instance on a shared database
 * accepts every instance's tokens. It is loaded on first use, so building the server touches nothing.
 */
export class HmacAppCheckTokens implements AppCheckVerifier, AppCheckIssuer {
  private key: Promise<Uint8Array> | undefined;

  constructor(private readonly db: Kysely<Database>) {}

  async mint(): Promise<{ token: string; expiresIn: number }> {
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject('web')
      .setJti(randomBytes(16).toString('base64url'))
      .setIssuedAt()
      .setExpirationTime(`${APP_CHECK_TOKEN_TTL_SECONDS}s`)
      .sign(await this.loadKey());
    return { token, expiresIn: APP_CHECK_TOKEN_TTL_SECONDS };
  }

  async verify(token: string): Promise<boolean> {
    try {
      await jwtVerify(token, await this.loadKey(), {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
      });
      return true;
    } catch {
      return false;
    }
  }

  private loadKey(): Promise<Uint8Array> {
    this.key ??= getOrCreateSecretKey(this.db, KEY_SETTING).catch((error: unknown) => {
      this.key = undefined;
      throw error;
    });
    return this.key;
  }
}
