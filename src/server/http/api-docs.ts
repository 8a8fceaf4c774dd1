import { z } from 'zod';
import { ErrorBodySchema, errorStatus, type ErrorCode } from '../../common';
import { apiTokensMayCall } from '../../common/api-tokens';

export const API_VERSION = '1.0.0';

type DocumentedMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route. Every route doc says it (`describeRoutes` takes no route without it), and it
 * alone decides the operation's `security` (docs/decisions/047-route-policies-by-construction.md):
 * - `anyone`: no credentials (`security: []`). A secret the route takes as input (an invitation or reset
 *   token, an unsubscribe token) is a parameter, not a credential.
 * - `member`: any active account, signed in by the session cookie, an id token or (but on the account's
 *   security routes, `apiTokensMayCall`) a personal API token.
 * - `admin`: an active admin, likewise; the security requirements name the role `admin`.
 * - `metrics-scraper`: `Authorization: Bearer <METRICS_TOKEN>`; a session grants nothing there.
 */
type RouteCaller = 'anyone' | 'member' | 'admin' | 'metrics-scraper';

/**
 * How a member or admin proves who they are. Default `session-or-token`; `session-cookie` where an id
 * token must not do (minting one); `session-token-or-download-token` where an object's download token
 * alone also grants the read (docs/storage-protocol.md).
 */
type SignInProof = 'session-or-token' | 'session-cookie' | 'session-token-or-download-token';

type RouteAccess =
  | { caller: 'anyone' | 'metrics-scraper'; proof?: never }
  | { caller: 'member' | 'admin'; proof?: SignInProof };

interface AnyAccess {
  caller: RouteCaller;
  proof?: SignInProof | undefined;
  errors?: ErrorCode[];
}

/** An OpenAPI security requirement: scheme → the roles it must carry (none: any signed-in account). */
type SecurityRequirement = Record<string, string[]>;

/** Only `describeRoutes` makes a RouteDoc, so no route reaches the document without its caller. */
const described: unique symbol = Symbol('described route');

interface RouteFields {
  method: DocumentedMethod;
  /** OpenAPI path, e.g. `/api/projects/{id}`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  params?: z.core.$ZodObject;
  query?: z.core.$ZodObject;
  body?: { contentType: string; schema: z.core.$ZodType };
  response: { status: number; description: string; schema?: z.core.$ZodType; contentType?: string };
  /**
   * Errors in the storage protocol's own body shape (docs/storage-protocol.md#81-error-body); a route
   * that has them answers none in the API's shape.
   */
  storageErrors?: { status: number; description: string }[];
}

interface RouteDoc extends RouteFields {
  readonly [described]: true;
  security: SecurityRequirement[];
  errors: ErrorCode[];
}

/** A route as its `*-route-docs.ts` describes it: the errors its input and caller imply are left out. */
export type RouteDescription = RouteFields &
  RouteAccess & {
    /** The route's own errors (`not-found`, `conflict`, `too-many-requests`, …). */
    errors?: ErrorCode[];
  };

function securityOf(
  caller: RouteCaller,
  proof: SignInProof = 'session-or-token',
  path: string,
): SecurityRequirement[] {
  if (caller === 'anyone') return [];
  if (caller === 'metrics-scraper') return [{ metricsToken: [] }];
  const roles = caller === 'admin' ? ['admin'] : [];
  if (proof === 'session-cookie') return [{ sessionCookie: roles }];
  const signedIn: SecurityRequirement[] = [{ sessionCookie: roles }, { idToken: roles }];
  // A personal API token stands for its owner wherever an id token does, but on the account's security.
  if (apiTokensMayCall(path)) signedIn.push({ apiToken: roles });
  return proof === 'session-token-or-download-token' ? [...signedIn, { downloadToken: [] }] : signedIn;
}

/**
 * The route docs of a feature, each with its security requirements from its caller, and its errors in
 * one order: `invalid-argument` when it parses path parameters, a query or a body; `unauthenticated`
 * unless anyone may call it; `forbidden` when only admins may; then the route's own. A storage route's
 * errors are its `storageErrors` alone.
 */
export function describeRoutes(routes: RouteDescription[]): RouteDoc[] {
  return routes.map(describeRoute);
}

function describeRoute(description: RouteDescription): RouteDoc {
  // The union keeps `proof` off routes anyone may call; here every field is read alike.
  const { caller, proof, errors = [], ...route }: RouteFields & AnyAccess = description;
  const implied: ErrorCode[] = route.storageErrors
    ? []
    : [
        ...(route.params || route.query || route.body ? (['invalid-argument'] as const) : []),
        ...(caller === 'anyone' ? [] : (['unauthenticated'] as const)),
        ...(caller === 'admin' ? (['forbidden'] as const) : []),
      ];
  return {
    ...route,
    [described]: true,
    security: securityOf(caller, proof, route.path),
    errors: [...implied, ...errors.filter((code) => !implied.includes(code))],
  };
}

/** A JSON request body of `schema`. */
export const jsonBody = (schema: z.core.$ZodType) => ({ contentType: 'application/json', schema });

const StorageErrorBodySchema = z.object({ error: z.object({ code: z.number().int(), message: z.string() }) });

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
export function buildOpenApiDocument(routes: readonly RouteDoc[], version: string) {
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
      security: route.security,
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
        apiToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'dojo_pat_…',
          description:
            "A personal API token made in account settings: its owner's permissions within its scope ('read' is refused every write). Never on the account's own security routes.",
        },
        downloadToken: {
          type: 'apiKey',
          in: 'query',
          name: 'token',
          description: "One object's download token: reads that object alone.",
        },
        metricsToken: { type: 'http', scheme: 'bearer', description: 'The METRICS_TOKEN of the server.' },
      },
    },
    paths,
  };
}

export const openApiRouteDoc = describeRoute({
  method: 'GET',
  path: '/api/openapi.json',
  tag: 'Operations',
  summary: 'This OpenAPI 3.1 document',
  caller: 'anyone',
  response: { status: 200, description: 'The document' },
});
