import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { messages, nameSearchKey } from '../../src/common';
import { apiTokenMessages } from '../../src/common/api-tokens';
import { webhookMessages } from '../../src/common/webhooks';
import { exportMessages } from '../../src/common/exports';
import { trelloImportMessages } from '../../src/common/trello-import';
import { attachmentMessages } from '../../src/common/attachments';
import { appearanceMessages } from '../../src/common/appearance';
import { calendarMessages } from '../../src/common/calendar';
import { calendarFeedMessages } from '../../src/common/calendar-feed';
import { passkeyMessages } from '../../src/common/passkeys';
import { secondStepMessages } from '../../src/common/second-step';
import { ssoMessages } from '../../src/common/single-sign-on';
import { hashSessionToken } from '../../src/server/auth/sessions-repository';
import { openDatabase } from '../../src/server/db/database';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Malformed input for every operation of /api/openapi.json (docs/decisions/047-route-policies-by-construction.md):
 * wrong types, missing fields, huge strings, bad ids, odd content types and bad JSON, generated from a
 * fixed seed, a bounded number per operation, each sent without credentials and as an admin (who passes
 * every role check, so the input reaches the route's parsing). No answer may be a 5xx, no protected
 * operation may answer 2xx without credentials, and every 4xx carries a JSON error with a message from
 * the catalogue (src/common/messages.ts).
 */

const SEED = 47;
// With the features' own catalogues, kept out of messages.ts so the first page's bundle does not carry them.
const CATALOGUE = new Set<unknown>([
  ...Object.values(messages),
  ...Object.values(apiTokenMessages),
  ...Object.values(secondStepMessages),
  ...Object.values(passkeyMessages),
  ...Object.values(ssoMessages),
  ...Object.values(appearanceMessages),
  ...Object.values(calendarMessages),
  ...Object.values(calendarFeedMessages),
  ...Object.values(attachmentMessages),
  ...Object.values(webhookMessages),
  ...Object.values(exportMessages),
  ...Object.values(trelloImportMessages),
]);
/** Per operation and caller; POST /api/app-check/token is limited to 30 a minute per address. */
const CASES_PER_OPERATION = 12;
const FUZZ_TIMEOUT_MS = 240_000;
const HUGE_STRING_LENGTH = 300_000;

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  default?: unknown;
}

interface Operation {
  method: string;
  path: string;
  security: Record<string, string[]>[];
  parameters: { name: string; in: 'path' | 'query'; schema: JsonSchema }[];
  body: { contentType: string; schema: JsonSchema } | undefined;
}

interface FuzzCase {
  what: string;
  /** A body the operation cannot read as it documents it: refused whoever sends it. */
  unreadable?: boolean;
  path: string;
  headers: Record<string, string>;
  body?: BodyInit;
}

const JSON_KINDS = ['string', 'number', 'integer', 'boolean', 'null', 'array', 'object'] as const;
type JsonKind = (typeof JSON_KINDS)[number];

/** The JSON kinds a schema accepts (every kind when it says nothing). */
function kindsOf(schema: JsonSchema): Set<JsonKind> {
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return new Set(union.flatMap((member) => [...kindsOf(member)]));
  if (schema.enum || schema.const !== undefined) {
    return new Set([...(schema.enum ?? [schema.const])].map((value) => kindOfValue(value)));
  }
  if (schema.type) {
    const kinds = [schema.type].flat() as JsonKind[];
    return new Set(kinds.includes('number') ? [...kinds, 'integer'] : kinds);
  }
  return new Set(JSON_KINDS);
}

function kindOfValue(value: unknown): JsonKind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (Number.isInteger(value)) return 'integer';
  return typeof value as JsonKind;
}

/** A value the schema would take, or close to it: the base that one field at a time is broken from. */
function plausible(schema: JsonSchema): unknown {
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  const union = schema.anyOf ?? schema.oneOf;
  if (union?.[0]) return plausible(union[0]);
  const kind = [...kindsOf(schema)][0];
  if (kind === 'object') {
    return Object.fromEntries(
      Object.entries(schema.properties ?? {}).map(([name, property]) => [name, plausible(property)]),
    );
  }
  if (kind === 'array') return schema.items ? [plausible(schema.items)] : [];
  return { string: 'fuzz', number: 1, integer: 1, boolean: true, null: null }[kind ?? 'string'];
}

const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.integer(), fc.string({ maxLength: 8 })), {
    maxKeys: 3,
  }),
);

/** Values of a JSON kind the schema does not take; none when it takes every kind. */
function wrongFor(schema: JsonSchema): fc.Arbitrary<unknown> | undefined {
  const allowed = kindsOf(schema);
  if (allowed.size >= JSON_KINDS.length - 1 && allowed.has('string') && allowed.has('object'))
    return undefined;
  return anyJson.filter((value) => {
    const kind = kindOfValue(value);
    return !allowed.has(kind) && !(kind === 'integer' && allowed.has('number'));
  });
}

const badIds: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 60 }),
  fc.constantFrom(
    '..%2F..%2Fetc%2Fpasswd',
    "' OR 1=1 --",
    '%00',
    '-1',
    '1e999',
    '%F0%9F%92%A9',
    'x'.repeat(5000),
    '__proto__',
    'constructor',
  ),
);

const badQueryValues: fc.Arbitrary<string[]> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }).map((value) => [value]),
  fc.constantFrom<string[]>(
    ['-1'],
    ['1e309'],
    ['NaN'],
    [''],
    ['x'.repeat(20_000)],
    ['1', '2'],
    ['[]'],
    ['{}'],
  ),
);

const oddContentTypes = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'application/json; charset=utf-16',
  'application/octet-stream',
  '*/*',
];
const badJsonTexts = [
  '{',
  '{"a":',
  '[1,]',
  'nul',
  '\u0000',
  '{"__proto__":{"polluted":1}}',
  '"',
  '1'.repeat(400),
];

const sample = <T>(arbitrary: fc.Arbitrary<T>, seed: number): T =>
  fc.sample(arbitrary, { seed, numRuns: 1 })[0] as T;

function fillPath(operation: Operation, override: Record<string, string> = {}): string {
  return operation.path.replace(/\{(\w+)\}/g, (_whole, name: string) => {
    if (name in override) return override[name] as string;
    if (name === 'bucket') return 'dojo';
    if (name === 'object') return encodeURIComponent('files/nobody/fuzz.txt');
    return 'fuzz-id';
  });
}

function queryString(entries: [string, string][]): string {
  const search = new URLSearchParams(entries).toString();
  return search ? `?${search}` : '';
}

/** Every malformed request this suite knows for the operation; a seeded choice of them is sent. */
function casesOf(operation: Operation, seed: number): FuzzCase[] {
  const cases: FuzzCase[] = [];
  const query = operation.parameters.filter((parameter) => parameter.in === 'query');
  const plausibleQuery: [string, string][] = query
    .filter((parameter) => parameter.name !== 'token')
    .map((parameter) => [parameter.name, String(plausible(parameter.schema))]);
  const basePath = fillPath(operation) + queryString(plausibleQuery);
  const json = (value: unknown, contentType = 'application/json') => ({
    headers: { 'content-type': contentType },
    body: JSON.stringify(value),
  });
  let n = seed;

  for (const parameter of operation.parameters) {
    if (parameter.in === 'path') {
      const bad = sample(badIds, n++);
      cases.push({
        what: `bad path ${parameter.name} ${JSON.stringify(bad.slice(0, 40))}`,
        path: fillPath(operation, { [parameter.name]: encodeURIComponent(bad) }),
        headers: {},
      });
    } else {
      const values = sample(badQueryValues, n++);
      const others = plausibleQuery.filter(([name]) => name !== parameter.name);
      cases.push({
        what: `bad query ${parameter.name}`,
        path:
          fillPath(operation) +
          queryString([...others, ...values.map((value): [string, string] => [parameter.name, value])]),
        headers: {},
      });
    }
  }

  const body = operation.body;
  if (body?.contentType === 'application/json') {
    for (const text of fc.sample(fc.constantFrom(...badJsonTexts), { seed: n++, numRuns: 2 })) {
      cases.push({
        what: `bad JSON ${JSON.stringify(text.slice(0, 20))}`,
        unreadable: true,
        path: basePath,
        headers: { 'content-type': 'application/json' },
        body: text,
      });
    }
    const schema = body.schema;
    const base = plausible(schema) as Record<string, unknown>;
    const wrongBody = wrongFor(schema);
    if (wrongBody) {
      cases.push({
        what: 'not the right kind of JSON',
        unreadable: true,
        path: basePath,
        ...json(sample(wrongBody, n++)),
      });
    }
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      const wrongValue = wrongFor(property);
      if (wrongValue) {
        cases.push({
          what: `wrong type for ${name}`,
          path: basePath,
          ...json({ ...base, [name]: sample(wrongValue, n++) }),
        });
      }
      cases.push({
        what: `huge ${name}`,
        path: basePath,
        ...json({ ...base, [name]: 'x'.repeat(HUGE_STRING_LENGTH) }),
      });
      if (schema.required?.includes(name)) {
        const { [name]: _missing, ...rest } = base;
        cases.push({ what: `missing ${name}`, path: basePath, ...json(rest) });
      }
    }
    cases.push({
      what: 'an extra field',
      path: basePath,
      ...json({ ...base, [sample(fc.string({ maxLength: 20 }), n++)]: 1 }),
    });
    for (const contentType of fc.sample(fc.constantFrom(...oddContentTypes), { seed: n++, numRuns: 2 })) {
      cases.push({
        what: `content type ${contentType}`,
        unreadable: true,
        path: basePath,
        ...json(base, contentType),
      });
    }
  } else if (body) {
    // Multipart and storage bodies: the wrong framing, a JSON body, and bytes that are no body at all.
    cases.push({
      what: 'JSON instead of a form',
      unreadable: true,
      path: basePath,
      ...json(plausible(body.schema)),
    });
    cases.push({
      what: 'a form without its boundary',
      unreadable: true,
      path: basePath,
      headers: { 'content-type': `${body.contentType}; boundary=fuzz` },
      body: `--other\r\ncontent-disposition: form-data; name="x"\r\n\r\n${'y'.repeat(1000)}\r\n--other--`,
    });
    cases.push({
      what: 'random bytes',
      unreadable: true,
      path: basePath,
      headers: { 'content-type': body.contentType },
      body: new Uint8Array(randomBytesOf(sample(fc.integer({ min: 1, max: 4096 }), n++), n++)),
    });
  } else {
    // No body expected: one anyway, and JSON that does not parse.
    cases.push({ what: 'an unexpected body', path: basePath, ...json(sample(anyJson, n++)) });
    const text = sample(fc.constantFrom(...badJsonTexts), n++);
    cases.push({
      what: `bad JSON ${JSON.stringify(text.slice(0, 20))}`,
      path: basePath,
      headers: { 'content-type': 'application/json' },
      body: text,
    });
  }

  const count = Math.min(cases.length, CASES_PER_OPERATION);
  return sample(fc.shuffledSubarray(cases, { minLength: count, maxLength: count }), seed);
}

/** Deterministic bytes (fast-check's generator, not crypto), so a failure replays. */
function randomBytesOf(length: number, seed: number): number[] {
  return sample(fc.array(fc.integer({ min: 0, max: 255 }), { minLength: length, maxLength: length }), seed);
}

let server: TestServer;
let operations: Operation[];
/** One admin per operation, so no per-user limit is reached and no sign-out spoils another operation. */
let adminCookies: string[];

beforeAll(async () => {
  server = await startTestServer({
    configOverrides: { metricsToken: 'fuzz-metrics-token-0123456789abcdef' },
  });
  const document = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as {
    paths: Record<
      string,
      Record<
        string,
        {
          security?: Record<string, string[]>[];
          parameters?: Operation['parameters'];
          requestBody?: { content: Record<string, { schema: JsonSchema }> };
        }
      >
    >;
  };
  operations = Object.entries(document.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]) => {
      const [contentType, media] = Object.entries(operation.requestBody?.content ?? {})[0] ?? [];
      return {
        method: method.toUpperCase(),
        path,
        security: operation.security ?? [],
        parameters: operation.parameters ?? [],
        body: contentType && media ? { contentType, schema: media.schema } : undefined,
      };
    }),
  );

  const now = new Date().toISOString();
  const tokens = operations.map(() => randomBytes(24).toString('base64url'));
  const database = await openDatabase({ dataDir: server.dataDir, databaseUrl: server.databaseUrl });
  try {
    const ids = tokens.map((_, index) => `fuzz-admin-${index}-${randomBytes(3).toString('hex')}`);
    await database.db
      .insertInto('users')
      .values(
        ids.map((id) => ({
          id,
          email: `${id}@example.com`,
          email_key: `${id}@example.com`,
          password_hash: '!',
          display_name: `Fuzz ${id}`,
          search_name: nameSearchKey(`Fuzz ${id}`),
          photo_url: '',
          online: 0,
          role: 'admin' as const,
          status: 'active' as const,
          last_active_at: null,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    await database.db
      .insertInto('sessions')
      .values(
        tokens.map((token, index) => ({
          token_hash: hashSessionToken(token),
          user_id: ids[index]!,
          created_at: now,
          expires_at: new Date(Date.now() + 86_400_000).toISOString(),
          user_agent: 'fuzz',
          last_seen_at: now,
        })),
      )
      .execute();
  } finally {
    await database.close();
  }
  adminCookies = tokens.map((token) => `dojo_session=${token}`);
}, FUZZ_TIMEOUT_MS);

afterAll(async () => {
  await server?.stop();
});

it(
  'answers malformed input to every operation with a 4xx JSON error, never a 5xx, never 2xx without credentials',
  async () => {
    expect(operations.length).toBeGreaterThanOrEqual(50);
    const problems: string[] = [];
    let sent = 0;
    for (const [index, operation] of operations.entries()) {
      const cases = casesOf(operation, SEED * 1000 + index * 50);
      for (const fuzz of cases) {
        for (const caller of ['anonymous', 'admin'] as const) {
          const headers = {
            ...fuzz.headers,
            ...(caller === 'admin' ? { cookie: adminCookies[index]! } : {}),
          };
          const response = await fetch(`${server.url}${fuzz.path}`, {
            method: operation.method,
            headers,
            ...(fuzz.body === undefined || operation.method === 'GET' ? {} : { body: fuzz.body }),
            redirect: 'manual',
          });
          sent += 1;
          const text = await response.text();
          const label = `${operation.method} ${operation.path} as ${caller}, ${fuzz.what}: ${response.status}`;
          if (response.status >= 500) problems.push(`${label} ${text.slice(0, 200)}`);
          if (fuzz.unreadable && response.status < 400) problems.push(`${label}: took a body it cannot read`);
          if (caller === 'anonymous' && operation.security.length > 0 && response.status < 300) {
            problems.push(`${label}: a protected operation answered without credentials`);
          }
          if (response.status >= 400 && response.status < 500) {
            const message = jsonErrorMessage(response, text);
            // The storage protocol answers in its own words (docs/storage-protocol.md); the API in the catalogue's.
            if (message && !operation.path.startsWith('/v0/') && !CATALOGUE.has(message)) {
              problems.push(`${label}: a message from outside the catalogue: ${message}`);
            }
            if (!message) problems.push(`${label}: no JSON error with a message: ${text.slice(0, 120)}`);
          }
        }
      }
    }
    expect(sent).toBeGreaterThan(500);
    expect(problems).toEqual([]);
    // The server runs in this process: a `__proto__` key that reached an object would show here.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  },
  FUZZ_TIMEOUT_MS,
);

/** The message of an error body, in the API's shape or the storage protocol's. */
function jsonErrorMessage(response: Response, text: string): string | undefined {
  if (!/^application\/json/.test(response.headers.get('content-type') ?? '')) return undefined;
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    return typeof message === 'string' && message !== '' ? message : undefined;
  } catch {
    return undefined;
  }
}
