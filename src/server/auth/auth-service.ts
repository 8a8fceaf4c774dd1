import type { Logger } from '../core/logger';
import type { Kysely } from 'kysely';
import { messages, type Role, type AuthUser, type LoginInput, type SignupFields } from '../../common';
import type { Database } from '../db/schema';
import type { PresenceService } from '../presence/presence-service';
import { isUniqueViolation } from '../db/database';
import { nowIso } from '../core/time';
import { AppError } from '../core/app-error';
import type { Change } from '../db/change-bus';
import type { UnitOfWork, Write } from '../db/unit-of-work';
import type { ProfileThumbnails, StagedThumbnail, ThumbnailUpload } from '../users/profile-thumbnails';
import { newId, newSecretToken } from '../core/ids';
import { displayNameTaken, requireFreeDisplayName } from '../users/display-names';
import {
  claimOwnership,
  findUserByEmailKey,
  insertUser,
  isDisplayNameTaken,
  replacePasswordHashIfUnchanged,
  touchUserActivity,
} from '../users/users-repository';
import { ID_TOKEN_TTL_SECONDS, type IdTokens } from './id-tokens';
import type { LoginFailureLimit } from './login-failures';
import { getDecoyHash, hashPassword, needsRehash, verifyPassword } from './passwords';
import type { SessionCache } from './session-cache';
import type { SignupGate } from './signup-gate';
import type { PasswordSignInGate } from './password-sign-in-gate';
import { deleteSession, findUserTheme, hashSessionToken, insertSession } from './sessions-repository';
import type { Viewer } from '../core/viewer';
import type { Theme } from '../../common/appearance';
import { faultOf } from '../db/fault-errors';
import { memberJoined } from '../webhooks/webhook-events';

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** A signup form that passed its checks (`parseSignupForm` in auth-routes.ts): valid fields, a raster image. */
export interface SignupInput {
  fields: SignupFields;
  thumbnail: ThumbnailUpload;
  /** The invitation link's token, when the form came through one. */
  invitation: string | undefined;
  /** The setup link's token (first admin under an invitation-only policy), when the form came through one. */
  setup?: string | undefined;
  /** The browser's User-Agent: the account's sessions list names the device by it. */
  userAgent: string;
}

export interface SignedIn {
  user: AuthUser;
  /** The account's theme, mirrored into the theme cookie with the session's, so the first page has it. */
  theme: Theme;
  sessionToken: string;
  idToken: string;
  expiresIn: number;
}

interface Deps {
  presence: PresenceService;
  db: Kysely<Database>;
  thumbnails: ProfileThumbnails;
  signupPolicy: SignupGate;
  idTokens: IdTokens;
  writes: UnitOfWork;
  /** Recently seen sessions; a session this instance ends leaves it before the logout answers. */
  sessions: SessionCache;
  log: Logger;
  loginFailures: LoginFailureLimit;
  /** Refuses password login and signup while single sign-on is required (single-sign-on/sso-policy.ts). */
  passwordSignIns?: PasswordSignInGate;
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
  async signUp({ fields, thumbnail, invitation, setup, userAgent }: SignupInput): Promise<SignedIn> {
    const { email, password, displayName } = fields;
    const emailKey = email.toLowerCase();
    const { db, thumbnails, signupPolicy } = this.deps;
    await this.deps.passwordSignIns?.check(null);
    // Refused signups stop here, before any byte is stored.
    const admission = await signupPolicy.admit(email, invitation, setup);
    if (await findUserByEmailKey(db, emailKey)) throw emailInUse();
    await requireFreeDisplayName(db, displayName, null);

    const passwordHash = await (this.deps.hashPassword ?? hashPassword)(password);
    const uid = newId();
    const sessionToken = newSecretToken();

    let staged: StagedThumbnail | undefined;
    try {
      staged = await thumbnails.stage(uid, thumbnail, false);
      const now = nowIso();
      const stagedThumbnail = staged;
      const user = await this.deps.writes.run(async (trx, write) => {
        await signupPolicy.consume(trx, admission);
        const photoURL = await thumbnails.record(trx, uid, stagedThumbnail);
        const role: Role = (await claimOwnership(trx, uid)) ? 'admin' : 'member';
        await insertUser(trx, { id: uid, email, emailKey, passwordHash, displayName, photoURL, role, now });
        await insertSession(trx, {
          tokenHash: hashSessionToken(sessionToken),
          userId: uid,
          createdAt: now,
          expiresAt: new Date(Date.now() + SESSION_TTL_MS).toISOString(),
          userAgent,
        });
        write
          .changed({ collection: 'users', id: uid })
          .emit(memberJoined({ id: uid, displayName, role, via: 'password' }));
        return { uid, email, displayName, photoURL, role };
      });
      // A new account follows the device until the member pins a theme.
      return this.signedIn(user, sessionToken, 'system');
    } catch (error) {
      await thumbnails.discard(staged);
      if (isUniqueViolation(error)) {
        // Two signups raced for one address or one name: the index said no, the lookups say which.
        if (await isDisplayNameTaken(db, displayName, null)) throw displayNameTaken();
        throw emailInUse();
      }
      // A full disk or the database away: the error handler answers 507 / 503, which say to retry later.
      if (error instanceof AppError || faultOf(error)) throw error;
      this.deps.log.error({ err: error }, 'signup failed');
      throw new AppError('signup-failed', messages.signupIncomplete);
    }
  }

  /**
   * The account whose email and password these are, active: the first half of a password login. The login
   * route then signs in, or asks for a second step (auth/second-step/second-step-service.ts); a check every
   * password login must pass belongs here.
   */
  async checkPassword(input: LoginInput): Promise<AuthUser> {
    const { db } = this.deps;
    const emailKey = input.email.toLowerCase();
    const attempt = await this.deps.loginFailures.begin(emailKey);
    const user = await findUserByEmailKey(db, emailKey);
    // Same work whether or not the email exists (or has a password: provider-made accounts have ''), and
    // the same answer: never say which was wrong.
    const matches = await verifyPassword(input.password, user?.password_hash || (await getDecoyHash()));
    if (!user || !matches) throw new AppError('wrong-credentials', messages.wrongCredentials);
    await attempt.succeeded();
    // Said only to whoever knows the password: it reveals nothing to anyone else.
    if (user.status !== 'active') throw new AppError('forbidden', messages.accountDeactivated);
    await this.deps.passwordSignIns?.check(user.role);
    // An account imported from Firebase still has Firebase's hash: the password just proven gets ours, once
    // the account may sign in with it (docs/decisions/080-moving-in-from-firebase.md).
    if (needsRehash(user.password_hash)) {
      const rehashed = await hashPassword(input.password);
      await replacePasswordHashIfUnchanged(db, user.id, user.password_hash, rehashed, nowIso());
    }

    return {
      uid: user.id,
      email: user.email,
      displayName: user.display_name,
      photoURL: user.photo_url,
      role: user.role,
    };
  }

  /**
   * Signs in someone who has proven who they are: a browser session, presence and an id token. Every way to
   * sign in (password, a second step, a passkey, an OpenID provider) ends here, once its proof is checked.
   */
  async startSession(user: AuthUser, userAgent: string): Promise<SignedIn> {
    const { db } = this.deps;
    const sessionToken = newSecretToken();
    const now = nowIso();
    await insertSession(db, {
      tokenHash: hashSessionToken(sessionToken),
      userId: user.uid,
      createdAt: now,
      expiresAt: new Date(Date.now() + SESSION_TTL_MS).toISOString(),
      userAgent,
    });
    await this.deps.presence.markOnline(user.uid, now);
    await touchUserActivity(db, user.uid, now);
    return this.signedIn(user, sessionToken, await findUserTheme(db, user.uid));
  }

  /**
   * Ends the session everywhere (all its tabs, on every instance) and marks the user offline, unless
   * they are still connected through another session.
   */
  async logOut(viewer: Viewer): Promise<void> {
    await this.deps.writes.run(async (trx, write) => {
      await deleteSession(trx, viewer.sessionHash);
      this.declareSessionsEnded(write, [viewer.sessionHash]);
    });
    await this.deps.presence.sessionEnded(viewer);
  }

  /**
   * Declares, in the write that deleted these sessions, that they ended: every instance signs out their
   * sockets when it commits. On PostgreSQL the NOTIFY commits with the delete, so a crash between the two
   * cannot leave another instance's sockets of an ended session live
   * (docs/decisions/033-list-json-and-one-sync-per-write.md, fifth addendum). This instance drops them from
   * its cache right after the commit (the others as the change arrives): password change, deactivation,
   * 'sign out' in settings.
   */
  declareSessionsEnded(write: Write<unknown>, sessionHashes: readonly string[]): void {
    write
      .changed(...sessionHashes.map((id): Change => ({ collection: 'sessions', id })))
      .forgetAfterCommit(() => {
        for (const hash of sessionHashes) this.deps.sessions.forget(hash);
      });
  }

  /**
   * Declares, in the write that changed a user's row (role, status, name or picture), that every instance
   * drops the user's cached sessions, since a viewer carries them. This instance forgets them right after
   * the commit, so the very next request already sees a demoted admin as a member (on PostgreSQL its own
   * NOTIFY arrives later).
   */
  declareUserChanged(write: Write<unknown>, uid: string): void {
    write
      .changed({ collection: 'users', id: uid })
      .forgetAfterCommit(() => this.deps.sessions.forgetUser(uid));
  }

  async mintIdToken(viewer: Viewer): Promise<{ idToken: string; expiresIn: number }> {
    const idToken = await this.deps.idTokens.sign({ uid: viewer.uid, sessionHash: viewer.sessionHash });
    return { idToken, expiresIn: ID_TOKEN_TTL_SECONDS };
  }

  private async signedIn(user: AuthUser, sessionToken: string, theme: Theme): Promise<SignedIn> {
    const idToken = await this.deps.idTokens.sign({
      uid: user.uid,
      sessionHash: hashSessionToken(sessionToken),
    });
    return { user, theme, sessionToken, idToken, expiresIn: ID_TOKEN_TTL_SECONDS };
  }
}

const emailInUse = (): AppError =>
  new AppError('email-already-in-use', messages.emailInUse, { email: messages.emailInUse });
