import { SignJWT, jwtVerify } from 'jose';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { getOrCreateSecretKey } from '../db/settings-repository';

const KEY_SETTING = 'id_token_hmac_key';
const ISSUER = 'the-dojo';
export const ID_TOKEN_TTL_SECONDS = 3600;

export interface IdTokenClaims {
  uid: string;
  /** Hash of the session the token was minted from: logging out revokes its tokens too. */
  sessionHash: string;
}

export interface VerifiedIdToken extends IdTokenClaims {
  /** ms since the epoch. */
  expiresAt: number;
}

/**
 * Short-lived HS256 tokens. The key lives in the database, not in memory or DATA_DIR, so every
 * instance on a shared PostgreSQL signs and verifies with the same key.
 */
export class IdTokens {
  private constructor(private readonly key: Uint8Array) {}

  static async load(db: Kysely<Database>): Promise<IdTokens> {
    return new IdTokens(await getOrCreateSecretKey(db, KEY_SETTING));
  }

  async sign({ uid, sessionHash }: IdTokenClaims): Promise<string> {
    return new SignJWT({ sid: sessionHash })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(uid)
      .setIssuer(ISSUER)
      .setIssuedAt()
      .setExpirationTime(`${ID_TOKEN_TTL_SECONDS}s`)
      .sign(this.key);
  }

  /** The claims of a valid, unexpired token, or null. */
  async verify(token: string): Promise<VerifiedIdToken | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer: ISSUER, algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
      if (typeof payload.exp !== 'number') return null;
      return { uid: payload.sub, sessionHash: payload.sid, expiresAt: payload.exp * 1000 };
    } catch {
      return null;
    }
  }
}
