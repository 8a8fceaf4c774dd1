import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
});

type OpenApi = {
  openapi: string;
  paths: Record<string, Record<string, { security: unknown; responses: Record<string, unknown> }>>;
};

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
  expect(createProject?.security).toEqual([{ sessionCookie: [] }, { idToken: [] }]);
  expect(Object.keys(createProject?.responses ?? {}).sort()).toEqual(['201', '400', '401', '403', '429']);
  expect(document.paths['/api/auth/login']?.post?.security).toEqual([]);
});
