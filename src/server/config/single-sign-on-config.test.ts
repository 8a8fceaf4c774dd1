import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const PUBLIC_URL = 'https://dojo.example.com';
const corp = {
  OIDC_PROVIDERS: 'corp',
  OIDC_CORP_ISSUER: 'https://login.example.com/realms/team',
  OIDC_CORP_CLIENT_ID: 'dojo',
  OIDC_CORP_CLIENT_SECRET: 'secret',
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe('OIDC providers from the environment', () => {
  it('reads each listed provider, with the name and groups claim defaulted', () => {
    const config = loadConfig({
      ...corp,
      OIDC_PROVIDERS: 'Corp, google',
      OIDC_GOOGLE_ISSUER: 'https://accounts.google.com',
      OIDC_GOOGLE_CLIENT_ID: 'g',
      OIDC_GOOGLE_CLIENT_SECRET: 's',
      OIDC_GOOGLE_NAME: 'Google',
      OIDC_CORP_ADMIN_GROUP: 'dojo-admins',
      PUBLIC_URL,
    });
    expect(config.oidcProviders).toEqual([
      {
        id: 'corp',
        name: 'corp',
        issuer: corp.OIDC_CORP_ISSUER,
        clientId: 'dojo',
        clientSecret: 'secret',
        adminGroup: 'dojo-admins',
        groupsClaim: 'groups',
      },
      {
        id: 'google',
        name: 'Google',
        issuer: 'https://accounts.google.com',
        clientId: 'g',
        clientSecret: 's',
        adminGroup: undefined,
        groupsClaim: 'groups',
      },
    ]);
  });

  it('has none without OIDC_PROVIDERS', () => {
    expect(loadConfig({}).oidcProviders).toEqual([]);
  });

  it('names every missing or bad variable at start', () => {
    expect(problemsOf({ OIDC_PROVIDERS: 'corp,bad-id,corp' })).toEqual([
      expect.stringContaining('PUBLIC_URL is not'),
      "OIDC_CORP_ISSUER: required for the provider 'corp' in OIDC_PROVIDERS",
      "OIDC_CORP_CLIENT_ID: required for the provider 'corp' in OIDC_PROVIDERS",
      "OIDC_CORP_CLIENT_SECRET: required for the provider 'corp' in OIDC_PROVIDERS",
      expect.stringContaining("'bad-id' is not an id"),
      "OIDC_PROVIDERS: 'corp' is listed twice",
    ]);
  });

  it('refuses a plain http issuer unless it is on this machine', () => {
    expect(problemsOf({ ...corp, OIDC_CORP_ISSUER: 'http://login.example.com', PUBLIC_URL })).toEqual([
      expect.stringContaining('OIDC_CORP_ISSUER: must be an https URL'),
    ]);
    expect(problemsOf({ ...corp, OIDC_CORP_ISSUER: 'http://127.0.0.1:9000', PUBLIC_URL })).toEqual([]);
  });
});
