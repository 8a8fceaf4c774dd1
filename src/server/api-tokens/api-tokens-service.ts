import type { Kysely } from 'kysely';
import {
  API_TOKEN_PREFIX,
  API_TOKENS_PER_MEMBER,
  apiTokenMessages,
  type ApiToken,
  type CreateApiTokenInput,
  type CreatedApiToken,
} from '../../common/api-tokens';
import type { AuthService } from '../auth/auth-service';
import { hashSessionToken } from '../auth/sessions-repository';
import { AppError, forbidden, notFound } from '../core/app-error';
import { newId, newSecretToken } from '../core/ids';
import { nowIso } from '../core/time';
import type { Viewer } from '../core/viewer';
import type { Database } from '../db/schema';
import type { UnitOfWork } from '../db/unit-of-work';
import {
  countUserApiTokens,
  deleteUserApiToken,
  insertApiToken,
  listUserApiTokens,
  lockUserTokens,
} from './api-tokens-repository';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A member's personal API tokens (docs/decisions/063-personal-api-tokens.md): made, listed and revoked
 * from a browser session only, so a leaked token can never make another or outlive its revocation.
 */
export class ApiTokensService {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      writes: UnitOfWork;
      /** Declares a revoked token ended, so every instance drops it from its session cache at once. */
      auth: AuthService;
    },
  ) {}

  async list(viewer: Viewer): Promise<ApiToken[]> {
    requireBrowserSession(viewer);
    return listUserApiTokens(this.deps.db, viewer.uid, nowIso());
  }

  /** A new token; its secret is in this answer and nowhere else (only its sha256 is stored). */
  async create(viewer: Viewer, input: CreateApiTokenInput): Promise<CreatedApiToken> {
    requireBrowserSession(viewer);
    const secret = `${API_TOKEN_PREFIX}${newSecretToken()}`;
    const createdAt = nowIso();
    const token: ApiToken = {
      id: newId(),
      name: input.name,
      scope: input.scope,
      createdAt,
      expiresAt: new Date(Date.parse(createdAt) + input.expiresInDays * DAY_MS).toISOString(),
      lastUsedAt: null,
    };
    await this.deps.writes.run(async (trx) => {
      await lockUserTokens(trx, viewer.uid);
      if ((await countUserApiTokens(trx, viewer.uid, createdAt)) >= API_TOKENS_PER_MEMBER) {
        throw new AppError('conflict', apiTokenMessages.tooMany);
      }
      await insertApiToken(trx, {
        tokenHash: hashSessionToken(secret),
        tokenId: token.id,
        userId: viewer.uid,
        name: token.name,
        scope: token.scope,
        createdAt,
        expiresAt: token.expiresAt,
      });
    });
    return { token, secret };
  }

  /**
   * Revokes one of the viewer's tokens: gone on every instance as the change commits (the same `sessions`
   * change a logout publishes: caches drop it, sockets opened with it are signed out).
   */
  async revoke(viewer: Viewer, tokenId: string): Promise<void> {
    requireBrowserSession(viewer);
    await this.deps.writes.run(async (trx, write) => {
      const tokenHash = await deleteUserApiToken(trx, viewer.uid, tokenId);
      if (!tokenHash) throw notFound(apiTokenMessages.notFound);
      this.deps.auth.declareSessionsEnded(write, [tokenHash]);
    });
  }
}

/** Tokens are made and ended by their owner in a browser, never by a token (a leaked one cannot spread). */
function requireBrowserSession(viewer: Viewer): void {
  if (viewer.apiToken) throw forbidden(apiTokenMessages.browserSessionOnly);
}
