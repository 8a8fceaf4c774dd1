import { describe, expect, it } from 'vitest';
import { apiTokensMayCall, CreateApiTokenSchema } from './api-tokens';

describe('apiTokensMayCall', () => {
  it("keeps tokens off the account's security and off minting id tokens, by Fastify pattern or OpenAPI path", () => {
    for (const path of [
      '/api/auth/token',
      '/api/account/api-tokens',
      '/api/account/api-tokens/:id',
      '/api/account/api-tokens/{id}',
      '/api/account/password',
      '/api/account/sessions/sign-out-others',
      '/api/account/delete',
      '/api/account/passkeys',
    ]) {
      expect(apiTokensMayCall(path), path).toBe(false);
    }
  });

  it('lets them everywhere else, the profile included', () => {
    for (const path of [
      '/api/account/profile',
      '/api/projects',
      '/api/projects/:id/comments',
      '/api/admin/members',
      '/api/auth/session',
      '/live',
      '/v0/b/:bucket/o/*',
    ]) {
      expect(apiTokensMayCall(path), path).toBe(true);
    }
  });
});

describe('CreateApiTokenSchema', () => {
  it('trims the name and takes only the listed lifetimes and scopes', () => {
    expect(CreateApiTokenSchema.parse({ name: '  Cron  ', scope: 'write', expiresInDays: 365 })).toEqual({
      name: 'Cron',
      scope: 'write',
      expiresInDays: 365,
    });
    expect(CreateApiTokenSchema.safeParse({ name: 'Cron', scope: 'write', expiresInDays: 366 }).success).toBe(
      false,
    );
    expect(CreateApiTokenSchema.safeParse({ name: 'Cron', scope: 'admin', expiresInDays: 7 }).success).toBe(
      false,
    );
  });
});
