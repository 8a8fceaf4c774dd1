import { z } from 'zod';
import { ErrorBodySchema, errorStatus, type ErrorCode } from '../../common';

export const API_VERSION = '1.0.0';

type DocumentedMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How a route is authenticated, as the OpenAPI document states it. */
type RouteAuth = 'none' | 'session' | 'session-or-token' | 'storage';

export interface RouteDoc {
  method: DocumentedMethod;
  /** OpenAPI path, e.g. `/api/projects/{id}`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  auth: RouteAuth;
  params?: z.core.$ZodObject;
  query?: z.core.$ZodObject;
  body?: { contentType: string; schema: z.core.$ZodType };
  response: { status: number; description: string; schema?: z.core.$ZodType; contentType?: string };
  errors: ErrorCode[];
  /** Errors in the storage protocol's own body shape (docs/storage-protocol.md#81-error-body). */
  storageErrors?: { status: number; description: string }[];
}

/** Who may call a route; it decides the errors every such route can answer. */
type RouteCaller = 'anyone' | 'member' | 'admin';

/** A route as its `*-route-docs.ts` describes it: the errors its input and caller imply are left out. */
interface RouteDescription extends Omit<RouteDoc, 'auth' | 'errors'> {
  /** Anyone (no credentials), a signed-in member, or an admin. */
  caller: RouteCaller;
  /** Default: `none` for anyone, `session-or-token` for the others. */
  auth?: RouteAuth;
  /** The route's own errors (`not-found`, `conflict`, `too-many-requests`, …). */
  errors?: ErrorCode[];
}

/**
 * The route docs of a feature, each with its errors in one order: `invalid-argument` when it parses path
 * parameters, a query or a body; `unauthenticated` unless anyone may call it; `forbidden` when only admins
 * may; then the route's own.
 */
export function describeRoutes(routes: RouteDescription[]): RouteDoc[] {
  return routes.map(({ caller, auth, errors = [], ...route }) => {
    const implied: ErrorCode[] = [
      ...(route.params || route.query || route.body ? (['invalid-argument'] as const) : []),
      ...(caller === 'anyone' ? [] : (['unauthenticated'] as const)),
      ...(caller === 'admin' ? (['forbidden'] as const) : []),
    ];
    return {
      ...route,
      auth: auth ?? (caller === 'anyone' ? 'none' : 'session-or-token'),
      errors: [...implied, ...errors.filter((code) => !implied.includes(code))],
    };
  });
}

/** A JSON request body of `schema`. */
export const jsonBody = (schema: z.core.$ZodType) => ({ contentType: 'application/json', schema });

const StorageErrorBodySchema = z.object({ error: z.object({ code: z.number().int(), message: z.string() }) });

const securityOf: Record<RouteAuth, Record<string, string[]>[] | undefined> = {
  none: [],
  session: [{ sessionCookie: [] }],
  'session-or-token': [{ sessionCookie: [] }, { idToken: [] }],
  storage: [{ idToken: [] }, { sessionCookie: [] }, { downloadToken: [] }],
};

const jsonSchema = (schema: z.core.$ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;

function parametersOf(schema: z.core.$ZodObject | undefined, location: 'path' | 'query') {
  if (!schema) return [];
  const json = jsonSchema(schema, 'input') as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || (json.required ?? []).includes(name),
    schema: property,
  }));
}

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas the server validates with, so the
 * published contract cannot drift from the code.
 */
export function buildOpenApiDocument(routes: RouteDoc[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const errorResponses = Object.fromEntries(
      [...new Set(route.errors.map((code) => errorStatus[code]))].map((status) => [
        String(status),
        {
          description: route.errors.filter((code) => errorStatus[code] === status).join(', '),
          content: { 'application/json': { schema: jsonSchema(ErrorBodySchema, 'output') } },
        },
      ]),
    );
    for (const { status, description } of route.storageErrors ?? []) {
      errorResponses[String(status)] = {
        description,
        content: { 'application/json': { schema: jsonSchema(StorageErrorBodySchema, 'output') } },
      };
    }
    const success = route.response.schema
      ? {
          description: route.response.description,
          content: {
            [route.response.contentType ?? 'application/json']: {
              schema: jsonSchema(route.response.schema, 'output'),
            },
          },
        }
      : { description: route.response.description };
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = {
      tags: [route.tag],
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      security: securityOf[route.auth],
      parameters: [...parametersOf(route.params, 'path'), ...parametersOf(route.query, 'query')],
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: { [route.body.contentType]: { schema: jsonSchema(route.body.schema, 'input') } },
            },
          }
        : {}),
      responses: { [String(route.response.status)]: success, ...errorResponses },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'The Dojo API',
      version,
      description:
        'JSON API, live-data WebSocket and storage protocol of The Dojo. See docs/api.md for the live protocol and examples.',
    },
    components: {
      securitySchemes: {
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'dojo_session' },
        idToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'Also accepted as `Authorization: Firebase <token>`.',
        },
        downloadToken: { type: 'apiKey', in: 'query', name: 'token' },
      },
    },
    paths,
  };
}

export const openApiRouteDoc: RouteDoc = {
  method: 'GET',
  path: '/api/openapi.json',
  tag: 'Operations',
  summary: 'This OpenAPI 3.1 document',
  auth: 'none',
  response: { status: 200, description: 'The document' },
  errors: [],
};
