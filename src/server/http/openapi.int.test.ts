import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
});

type SecurityRequirement = Record<string, string[]>;
type Operation = { security?: SecurityRequirement[]; responses: Record<string, unknown> };
type OpenApi = {
  openapi: string;
  components: { securitySchemes: Record<string, { type: string }> };
  paths: Record<string, Record<string, Operation>>;
};

const operationsOf = (document: OpenApi) =>
  Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({
      key: `${method.toUpperCase()} ${path}`,
      operation,
    })),
  );

/** Fastify path → OpenAPI path: `:id` → `{id}`, the storage wildcard → `{object}`. */
const toOpenApiPath = (url: string): string => url.replace(/:(\w+)/g, '{$1}').replace(/\/\*$/, '/{object}');

it('documents every HTTP route the server registers', async () => {
  const response = await fetch(`${server.url}/api/openapi.json`);
  expect(response.status).toBe(200);
  const document = (await response.json()) as OpenApi;
  expect(document.openapi).toBe('3.1.0');

  const routes = server.app.registeredRoutes();
  const documented = new Set(
    Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    ),
  );
  const api = routes.filter(
    (route) => /^\/(api|v0|live)\b/.test(route.url) && route.method !== 'HEAD' && route.method !== 'OPTIONS',
  );
  expect(api.length).toBeGreaterThanOrEqual(10);
  const missing = api
    .map((route) => `${route.method} ${toOpenApiPath(route.url)}`)
    .filter((key) => !documented.has(key));
  expect(missing).toEqual([]);
});

it('states auth and error responses for each operation', async () => {
  const document = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as OpenApi;
  const createProject = document.paths['/api/projects']?.post;
  expect(createProject?.security).toEqual([{ sessionCookie: [] }, { idToken: [] }, { apiToken: [] }]);
  expect(Object.keys(createProject?.responses ?? {}).sort()).toEqual(['201', '400', '401', '403', '429']);
  expect(document.paths['/api/auth/login']?.post?.security).toEqual([]);
});

it('declares the security of every operation, with declared schemes, and the admin role where only admins may call', async () => {
  const document = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as OpenApi;
  const schemes = document.components.securitySchemes;
  expect(Object.keys(schemes).sort()).toEqual([
    'apiToken',
    'downloadToken',
    'idToken',
    'metricsToken',
    'sessionCookie',
  ]);
  const operations = operationsOf(document);
  expect(
    operations.filter(({ operation }) => !Array.isArray(operation.security)).map(({ key }) => key),
  ).toEqual([]);
  const undeclared = operations.flatMap(({ key, operation }) =>
    (operation.security ?? []).flatMap((requirement) =>
      Object.keys(requirement)
        .filter((scheme) => !(scheme in schemes))
        .map((scheme) => `${key}: ${scheme}`),
    ),
  );
  expect(undeclared).toEqual([]);
  // A client generated from the document learns from it what a call without credentials gets.
  const protectedWithout401 = operations
    .filter(({ operation }) => (operation.security ?? []).length > 0 && !('401' in operation.responses))
    .map(({ key }) => key);
  expect(protectedWithout401).toEqual([]);

  const security = (key: string) => operations.find((operation) => operation.key === key)?.operation.security;
  expect(security('GET /api/admin/members')).toEqual([
    { sessionCookie: ['admin'] },
    { idToken: ['admin'] },
    { apiToken: ['admin'] },
  ]);
  expect(security('PATCH /api/projects/{id}')).toEqual([
    { sessionCookie: [] },
    { idToken: [] },
    { apiToken: [] },
  ]);
  // The account's own security needs a browser: no personal API token there.
  expect(security('POST /api/account/password')).toEqual([{ sessionCookie: [] }, { idToken: [] }]);
  expect(security('POST /api/account/api-tokens')).toEqual([{ sessionCookie: [] }, { idToken: [] }]);
  expect(security('POST /api/auth/token')).toEqual([{ sessionCookie: [] }]);
  expect(security('GET /v0/b/{bucket}/o/{object}')).toEqual([
    { sessionCookie: [] },
    { idToken: [] },
    { apiToken: [] },
    { downloadToken: [] },
  ]);
  expect(security('DELETE /v0/b/{bucket}/o/{object}')).toEqual([
    { sessionCookie: [] },
    { idToken: [] },
    { apiToken: [] },
  ]);
  expect(security('GET /metrics')).toEqual([{ metricsToken: [] }]);
  for (const publicOperation of [
    'GET /api/health',
    'GET /api/invitations/{token}',
    'POST /api/auth/signup',
  ]) {
    expect(security(publicOperation), publicOperation).toEqual([]);
  }
  const adminOperations = operations.filter(({ key }) => key.includes(' /api/admin/'));
  expect(adminOperations.length).toBeGreaterThanOrEqual(10);
  for (const { key, operation } of adminOperations) {
    expect(operation.security, key).toEqual([
      { sessionCookie: ['admin'] },
      { idToken: ['admin'] },
      { apiToken: ['admin'] },
    ]);
  }
});
