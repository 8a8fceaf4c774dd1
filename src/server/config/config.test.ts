import path from 'node:path';
import { describe, it, expect } from 'vitest';
import {
  COMMENTS_PER_MINUTE,
  LIVE_MAX_SOCKETS_PER_SESSION,
  LIVE_MAX_SOCKETS_PER_USER,
  LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET,
  PROJECT_CREATES_PER_MINUTE,
  UPLOADS_PER_MINUTE,
} from '../../common';
import { ConfigError, loadConfig, mailSettingsOf, type Config } from './config';

/** Runs loadConfig expecting a ConfigError and returns it. */
function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

const problemFor = (error: ConfigError, variable: string) =>
  error.problems.filter((problem) => problem.startsWith(`${variable}:`));

/** A setting read from `variable`: `byDefault` without it, `set` with it, and `refused` is a problem. */
function expectSetting<Key extends keyof Config>(
  key: Key,
  variable: string,
  { byDefault, set, refused }: { byDefault: Config[Key]; set: [string, Config[Key]]; refused: string },
): void {
  expect(loadConfig({})[key]).toBe(byDefault);
  expect(loadConfig({ [variable]: set[0] })[key]).toBe(set[1]);
  expect(problemFor(configError({ [variable]: refused }), variable)).toHaveLength(1);
}

describe('loadConfig', () => {
  it('uses the documented defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe('0.0.0.0');
    expect(path.isAbsolute(config.dataDir)).toBe(true);
    expect(path.basename(config.dataDir)).toBe('data');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.publicUrl).toBeUndefined();
    expect(config.storageBucket).toBe('dojo');
    expect(config.appCheckEnforced).toBe(false);
  });

  it('stores files on disk by default, and names every missing S3 setting when STORAGE_DRIVER=s3', () => {
    expect(loadConfig({}).blobStorage).toEqual({ driver: 'disk' });
    const error = configError({ STORAGE_DRIVER: 's3', S3_ACCESS_KEY_ID: 'key' });
    expect(problemFor(error, 'S3_BUCKET')).toEqual(['S3_BUCKET: required when STORAGE_DRIVER=s3']);
    expect(problemFor(error, 'S3_SECRET_ACCESS_KEY')).toHaveLength(1);
    expect(problemFor(error, 'S3_ACCESS_KEY_ID')).toEqual([]);
    expect(problemFor(configError({ S3_KEY_PREFIX: 'no-slash' }), 'S3_KEY_PREFIX')).toHaveLength(1);
    const s3 = loadConfig({
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_BUCKET: 'dojo-files',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
      S3_KEY_PREFIX: 'dojo/',
    }).blobStorage;
    expect(s3).toEqual({
      driver: 's3',
      endpoint: 'http://127.0.0.1:9000',
      bucket: 'dojo-files',
      region: 'us-east-1',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      forcePathStyle: true,
      keyPrefix: 'dojo/',
    });
  });

  it('takes the live caps and write limits from limits.ts unless the environment sets them', () => {
    const defaults = loadConfig({});
    expect(defaults.liveMaxSubscriptionsPerSocket).toBe(LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET);
    expect(defaults.liveMaxSocketsPerSession).toBe(LIVE_MAX_SOCKETS_PER_SESSION);
    expect(defaults.liveMaxSocketsPerUser).toBe(LIVE_MAX_SOCKETS_PER_USER);
    expect(defaults.projectCreatesPerMinute).toBe(PROJECT_CREATES_PER_MINUTE);
    expect(defaults.commentsPerMinute).toBe(COMMENTS_PER_MINUTE);
    expect(defaults.uploadsPerMinute).toBe(UPLOADS_PER_MINUTE);
    const set = loadConfig({ LIVE_MAX_SOCKETS_PER_USER: '5', COMMENTS_PER_MINUTE: '7' });
    expect([set.liveMaxSocketsPerUser, set.commentsPerMinute]).toEqual([5, 7]);
    expect(problemFor(configError({ UPLOADS_PER_MINUTE: '0' }), 'UPLOADS_PER_MINUTE')).toHaveLength(1);
  });

  it('does not read process.env when given an environment', () => {
    const previous = process.env.PORT;
    process.env.PORT = '4321';
    try {
      expect(loadConfig({}).port).toBe(3000);
    } finally {
      if (previous === undefined) delete process.env.PORT;
      else process.env.PORT = previous;
    }
  });

  it('reads valid values', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATA_DIR: '/srv/dojo',
      DATABASE_URL: 'postgres://u:p@db:5432/dojo',
      APP_CHECK_ENFORCED: 'true',
    });
    expect(config.port).toBe(8080);
    expect(config.host).toBe('127.0.0.1');
    expect(config.dataDir).toBe(path.resolve('/srv/dojo'));
    expect(config.databaseUrl).toBe('postgres://u:p@db:5432/dojo');
    expect(config.appCheckEnforced).toBe(true);
  });

  it('accepts postgresql:// as well as postgres://', () => {
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/dojo' }).databaseUrl).toBe('postgresql://db/dojo');
  });

  it('resolves a relative DATA_DIR to an absolute path', () => {
    expect(loadConfig({ DATA_DIR: 'var/dojo' }).dataDir).toBe(path.resolve('var/dojo'));
  });

  it('refuses a non-numeric PORT, naming the variable', () => {
    const error = configError({ PORT: 'abc' });
    expect(problemFor(error, 'PORT')).toHaveLength(1);
    expect(error.message).toContain('PORT');
  });

  it('refuses an out-of-range PORT', () => {
    expect(problemFor(configError({ PORT: '70000' }), 'PORT')).toHaveLength(1);
    expect(problemFor(configError({ PORT: '-1' }), 'PORT')).toHaveLength(1);
  });

  it('refuses a non-integer PORT', () => {
    expect(problemFor(configError({ PORT: '80.5' }), 'PORT')).toHaveLength(1);
  });

  it('refuses a non-PostgreSQL DATABASE_URL', () => {
    const error = configError({ DATABASE_URL: 'mysql://x' });
    expect(problemFor(error, 'DATABASE_URL')).toHaveLength(1);
    expect(error.problems).toHaveLength(1);
  });

  it('lists every bad value at once', () => {
    const error = configError({
      PORT: 'abc',
      DATABASE_URL: 'mysql://x',
      PUBLIC_URL: 'not a url',
      STORAGE_BUCKET: 'bad/bucket',
      LOG_LEVEL: 'loud',
    });
    for (const variable of ['PORT', 'DATABASE_URL', 'PUBLIC_URL', 'STORAGE_BUCKET', 'LOG_LEVEL']) {
      expect(problemFor(error, variable), variable).toHaveLength(1);
    }
    expect(error.problems).toHaveLength(5);
    for (const variable of ['PORT', 'DATABASE_URL', 'PUBLIC_URL']) expect(error.message).toContain(variable);
  });

  it('removes a trailing slash from PUBLIC_URL', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://dojo.example.com/' }).publicUrl).toBe(
      'https://dojo.example.com',
    );
    expect(loadConfig({ PUBLIC_URL: 'https://example.com/dojo/' }).publicUrl).toBe(
      'https://example.com/dojo',
    );
  });

  it('refuses SMTP_URL without PUBLIC_URL, naming both: emailed links are built on PUBLIC_URL only', () => {
    const error = configError({ SMTP_URL: 'smtp://mail.example:587' });
    expect(error.problems).toHaveLength(1);
    expect(error.message).toContain('SMTP_URL');
    expect(error.message).toContain('PUBLIC_URL');
    const config = loadConfig({
      SMTP_URL: 'smtp://mail.example:587',
      PUBLIC_URL: 'https://dojo.example.com/',
    });
    expect(mailSettingsOf(config)).toEqual({
      smtpUrl: 'smtp://mail.example:587',
      from: 'The Dojo <no-reply@localhost>',
      publicUrl: 'https://dojo.example.com',
    });
    expect(mailSettingsOf(loadConfig({}))).toBeUndefined();
  });

  it('leaves a PUBLIC_URL without a trailing slash alone', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://example.com/dojo' }).publicUrl).toBe('https://example.com/dojo');
  });

  it("keeps a resumable upload session 24 h at most, and at least the protocol's 10 minutes", () => {
    expect(loadConfig({}).storageUploadSessionTtlMs).toBe(24 * 60 * 60 * 1000);
    expect(loadConfig({ STORAGE_UPLOAD_TTL_MS: '3600000' }).storageUploadSessionTtlMs).toBe(3_600_000);
    for (const value of ['86400001', '599999', 'soon']) {
      const error = configError({ STORAGE_UPLOAD_TTL_MS: value });
      expect(problemFor(error, 'STORAGE_UPLOAD_TTL_MS'), value).toHaveLength(1);
    }
  });

  it('trusts no proxy unless TRUST_PROXY names one, PUBLIC_URL or not', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ PUBLIC_URL: 'https://dojo.example.com' }).trustProxy).toBe(false);
  });

  it('reads TRUST_PROXY as proxy addresses, CIDR ranges and proxy-addr names', () => {
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1' }).trustProxy).toEqual(['127.0.0.1']);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, ::1 ,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuses a TRUST_PROXY hop count or anything that is not an address or range', () => {
    for (const value of ['1', '2', '10.0.0.0/33', 'proxy.example.com', '127.0.0.1,', '::1/129', 'true']) {
      expect(problemFor(configError({ TRUST_PROXY: value }), 'TRUST_PROXY'), value).toHaveLength(1);
    }
  });

  it('limits failed logins per account to 10 unless LOGIN_FAILURES_PER_ACCOUNT says otherwise', () => {
    expectSetting('loginFailuresPerAccount', 'LOGIN_FAILURES_PER_ACCOUNT', {
      byDefault: 10,
      set: ['25', 25],
      refused: '0',
    });
  });

  it('caps connections per address at 100 by default; MAX_CONNECTIONS_PER_ADDRESS changes it', () => {
    expectSetting('maxConnectionsPerAddress', 'MAX_CONNECTIONS_PER_ADDRESS', {
      byDefault: 100,
      set: ['2000', 2000],
      refused: '0',
    });
  });
});

describe('due reminder settings', () => {
  it('default to UTC days and a one-minute tick; refuse an unknown time zone', () => {
    const config = loadConfig({});
    expect(config.notificationTimeZone).toBe('UTC');
    expect(config.dueReminderIntervalMs).toBe(60_000);
    expect(loadConfig({ NOTIFICATION_TIME_ZONE: 'Europe/Paris' }).notificationTimeZone).toBe('Europe/Paris');
    expect(
      problemFor(configError({ NOTIFICATION_TIME_ZONE: 'Mars/Olympus' }), 'NOTIFICATION_TIME_ZONE'),
    ).toHaveLength(1);
  });

  it('honour the test clock file only when NODE_ENV=test', () => {
    expect(loadConfig({ NODE_ENV: 'test', DOJO_TEST_CLOCK_FILE: '/tmp/now' }).testClockFile).toBe('/tmp/now');
    expect(
      loadConfig({ NODE_ENV: 'production', DOJO_TEST_CLOCK_FILE: '/tmp/now' }).testClockFile,
    ).toBeUndefined();
    expect(loadConfig({ DOJO_TEST_CLOCK_FILE: '/tmp/now' }).testClockFile).toBeUndefined();
  });
});
