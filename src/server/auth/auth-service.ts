import type { Logger } from '../shared/logger';
import type { Kysely } from 'kysely';
import {
  IMAGE_SNIFF_BYTES,
  messages,
  sniffRasterImage,
  STORAGE_DEFAULT_CONTENT_TYPE,
  type AuthUser,
  type LoginInput,
  type SignupFields,
} from '../../common';
import type { Database } from '../db/schema';
import type { PresenceService } from '../presence/presence-service';
import { isUniqueViolation } from '../db/database';
import { nowIso } from '../shared/time';
import { AppError } from '../shared/app-error';
import type { ChangeBus } from '../live/change-bus';
import { safeFileName } from '../storage/object-names';
import type { StorageService } from '../storage/storage-service';
import { newId, newSecretToken } from '../shared/ids';
import { findUserByEmailKey, insertUser, toUserProfile } from '../users/users-repository';
import { ID_TOKEN_TTL_SECONDS, type IdTokens } from './id-tokens';
import type { LoginFailureLimit } from './login-failures';
import { getDecoyHash, hashPassword, verifyPassword } from './passwords';
import type { SessionCache } from './session-cache';
import { deleteSession, hashSessionToken, insertSession } from './sessions-repository';
import type { Viewer } from './viewer';
import { faultOf } from '../db/fault-errors';

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** A signup form that passed its checks (`parseSignupForm` in auth-routes.ts): valid fields, a raster image. */
export interface SignupInput {
  fields: SignupFields;
  thumbnail: { bytes: Buffer; fileName: string | undefined };
}

export interface SignedIn {
  user: AuthUser;
  sessionToken: string;
  idToken: string;
  expiresIn: number;
}

interface Deps {
  presence: PresenceService;
  db: Kysely<Database>;
  storage: StorageService;
  idTokens: IdTokens;
  changes: ChangeBus;
  /** Recently seen sessions; a session this instance ends leaves it before the logout answers. */
  sessions: SessionCache;
  log: Logger;
  loginFailures: LoginFailureLimit;
  /** Replaces scrypt hashing at signup; only for the data generator, which signs up thousands of accounts. */
  hashPassword?: (password: string) => Promise<string>;
}

export class AuthService {
  constructor(private readonly deps: Deps) {}

  /**
   * Creates the account, stores the thumbnail, creates the profile (online) and a session, all or
   * nothing (docs/product-spec.md#flaw-8): bytes are staged first, every row is written in one transaction, and
   * the staged bytes are removed if anything fails.
   */
  async signUp({ fields, thumbnail }: SignupInput): Promise<SignedIn> {
    const { email, password, displayName } = fields;
    const emailKey = email.toLowerCase();
    const { db, storage } = this.deps;
    if (await findUserByEmailKey(db, emailKey)) throw emailInUse();

    const passwordHash = await (this.deps.hashPassword ?? hashPassword)(password);
    const uid = newId();
    const sessionToken = newSecretToken();
    const contentType =
      sniffRasterImage(thumbnail.bytes.subarray(0, IMAGE_SNIFF_BYTES)) ?? STORAGE_DEFAULT_CONTENT_TYPE;
    const objectName = `thumbnails/${uid}/${safeFileName(thumbnail.fileName, 'thumbnail')}`;

    let blobKey: string | undefined;
    try {
      const blob = await storage.stage(thumbnail.bytes);
      blobKey = blob.key;
      const now = nowIso();
      const user = await db.transaction().execute(async (trx) => {
        const { row } = await storage.record(trx, {
          bucket: storage.defaultBucket,
          name: objectName,
          blob,
          contentType,
          ownerUid: uid,
        });
        const photoURL = storage.downloadUrl(row);
        await insertUser(trx, { id: uid, email, emailKey, passwordHash, displayName, photoURL, now });
        await insertSession(trx, {
          tokenHash: hashSessionToken(sessionToken),
          userId: uid,
          createdAt: now,
          expiresAt: new Date(Date.now() + SESSION_TTL_MS).toISOString(),
        });
        return { uid, email, displayName, photoURL };
      });
      await this.deps.changes.publish([{ collection: 'users', id: uid }]);
      return this.signedIn(user, sessionToken);
    } catch (error) {
      await storage.discard(blobKey);
      if (isUniqueViolation(error)) throw emailInUse();
      // A full disk or the database away: the error handler answers 507 / 503, which say to retry later.
      if (error instanceof AppError || faultOf(error)) throw error;
      this.deps.log.error({ err: error }, 'signup failed');
      throw new AppError('signup-failed', messages.signupIncomplete);
    }
  }

  async logIn(input: LoginInput): Promise<SignedIn> {
    const { db } = this.deps;
    const emailKey = input.email.toLowerCase();
    const attempt = await this.deps.loginFailures.begin(emailKey);
    const user = await findUserByEmailKey(db, emailKey);
    // Same work whether or not the email exists, and the same answer: never say which was wrong.
    const matches = await verifyPassword(input.password, user?.password_hash ?? (await getDecoyHash()));
    if (!user || !matches) throw new AppError('wrong-credentials', messages.wrongCredentials);
    await attempt.succeeded();

    const sessionToken = newSecretToken();
    const now = nowIso();
    await insertSession(db, {
      tokenHash: hashSessionToken(sessionToken),
      userId: user.id,
      createdAt: now,
      expiresAt: new Date(Date.now() + SESSION_TTL_MS).toISOString(),
    });
    await this.deps.presence.markOnline(user.id, now);
    const profile = toUserProfile(user);
    return this.signedIn(
      { uid: user.id, email: user.email, displayName: profile.displayName, photoURL: profile.photoURL },
      sessionToken,
    );
  }

  /**
   * Ends the session everywhere (all its tabs, on every instance) and marks the user offline, unless
   * they are still connected through another session.
   */
  async logOut(viewer: Viewer): Promise<void> {
    await deleteSession(this.deps.db, viewer.sessionHash);
    this.deps.sessions.forget(viewer.sessionHash);
    await this.deps.changes.publish([{ collection: 'sessions', id: viewer.sessionHash }]);
    await this.deps.presence.sessionEnded(viewer);
  }

  async mintIdToken(viewer: Viewer): Promise<{ idToken: string; expiresIn: number }> {
    const idToken = await this.deps.idTokens.sign({ uid: viewer.uid, sessionHash: viewer.sessionHash });
    return { idToken, expiresIn: ID_TOKEN_TTL_SECONDS };
  }

  private async signedIn(user: AuthUser, sessionToken: string): Promise<SignedIn> {
    const idToken = await this.deps.idTokens.sign({
      uid: user.uid,
      sessionHash: hashSessionToken(sessionToken),
    });
    return { user, sessionToken, idToken, expiresIn: ID_TOKEN_TTL_SECONDS };
  }
}

const emailInUse = (): AppError =>
  new AppError('email-already-in-use', messages.emailInUse, { email: messages.emailInUse });
