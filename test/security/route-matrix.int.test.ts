import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nameSearchKey, type ErrorBody } from '../../src/common';
import { apiTokensMayCall } from '../../src/common/api-tokens';
import { publicSessionId } from '../../src/server/account/session-devices';
import { hashPassword } from '../../src/server/auth/passwords';
import { hashSessionToken } from '../../src/server/auth/sessions-repository';
import { openDatabase } from '../../src/server/db/database';
import { makePng, uniqueEmail } from '../support/fixtures';
import { SmtpInbox } from '../support/smtp-inbox';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Every route the server registers, called by every kind of caller, against one declared policy
 * (docs/decisions/047-route-policies-by-construction.md). Each cell (route × caller) has its own users and
 * data, so an allowed call never spoils another cell, and no user makes more than a few requests (the
 * per-user write limits are never reached).
 */

const CALLERS = ['anonymous', 'owner', 'other', 'admin', 'deactivated', 'idToken', 'apiToken'] as const;
/**
 * `owner`: the member whose project, comment, session, notification, object and account the cell's
 * request names; `other`: another member acting on them; `admin`: an admin doing so; `deactivated`: a
 * member deactivated after signing in, with their session row still there; `idToken`: the owner with
 * `Authorization: Bearer <id token>` and no cookie; `apiToken`: the owner with a personal API token of
 * scope 'write' (`Authorization: Bearer dojo_pat_…`, no cookie).
 */
type Caller = (typeof CALLERS)[number];
/**
 * `apiToken` defaults to what the id token gets, except where `apiTokensMayCall` says a token may not go
 * (the account's own security, minting id tokens): 403 there (docs/decisions/063-personal-api-tokens.md).
 */
type Policy = Record<Exclude<Caller, 'apiToken'>, number> & { apiToken?: number };

const expectedStatus = (route: string, caller: Caller): number => {
  const { policy } = ROUTES[route]!;
  if (caller !== 'apiToken') return policy[caller];
  return policy.apiToken ?? (apiTokensMayCall(route.split(' ')[1] ?? '') ? policy.idToken : 403);
};

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a brand new horse battery';
const METRICS_TOKEN = 'route-matrix-metrics-token-0123456789';
const BUCKET = 'dojo';
/** Hundreds of requests and fixtures: far more than one test's usual 30 s on a loaded machine. */
const MATRIX_TIMEOUT_MS = 180_000;

/** What one cell's request may name: all of it belongs to the cell's owner. */
interface World {
  owner: { id: string; email: string };
  projectId: string;
  completedProjectId: string;
  commentId: string;
  notificationId: string;
  /** The owner's second session, as the settings screen names it. */
  otherSessionId: string;
  /** A deactivated member an admin may reactivate. */
  dormantMemberId: string;
  invitationId: string;
  /** The owner's object, under files/{owner}/. */
  objectName: string;
  /** Filled for the routes that need them (`needs`). */
  resetToken: string;
  /** The owner's API token's public id, for the routes that need one (`needs`). */
  apiTokenId: string;
  /** The owner's passkey (its credential id). */
  passkeyId: string;
  /** The owner's attachment on `projectId`; its bytes are the owner's object (when `needs: ['object']`). */
  attachmentId: string;
  /** A disabled webhook endpoint (so nothing is sent) with one delivery; written for admin cells only. */
  webhookId: string;
  webhookDeliveryId: string;
  /** A finished Trello import; written for admin cells only. */
  importId: string;
}

/** Shared by every cell: links that reading does not use up. */
interface Shared {
  invitationToken: string;
  resetToken: string;
}

interface CellRequest {
  method: string;
  path: string;
  json?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
  body?: string;
}

interface Row {
  policy: Policy;
  request: (world: World, shared: Shared) => CellRequest;
  /** Made through the API in beforeAll, for this route's cells only. */
  needs?: ('object' | 'reset-token' | 'api-token')[];
  /** Where a public route's status says nothing of who it took the caller for: what its answer must say. */
  answers?: (body: unknown, world: World, caller: Caller) => string | undefined;
}

const everyone = (status: number): Policy => ({
  anonymous: status,
  owner: status,
  other: status,
  admin: status,
  deactivated: status,
  idToken: status,
});
/** Any active account, by cookie or id token. */
const signedIn = (status: number): Policy => ({ ...everyone(status), anonymous: 401, deactivated: 401 });
/** The owner, or an admin; another member is refused with `refusal`. */
const ownerOrAdmin = (status: number, refusal = 403): Policy => ({ ...signedIn(status), other: refusal });
/** The owner alone; anyone else signed in is refused with `refusal`. */
const ownerOnly = (status: number, refusal: number): Policy => ({
  ...signedIn(status),
  other: refusal,
  admin: refusal,
});
const adminOnly = (status: number): Policy => ({ ...signedIn(403), admin: status });

const jsonRequest = (method: string, path: string, json?: unknown): CellRequest => ({
  method,
  path,
  ...(json === undefined ? {} : { json }),
});
const projectInput = (world: World) => ({
  name: 'Matrix project, edited',
  details: 'Edited by the route matrix',
  dueDate: '2031-01-01',
  category: 'development',
  assignedUserIds: [world.owner.id],
});
const objectPath = (name: string) => `/v0/b/${BUCKET}/o/${encodeURIComponent(name)}`;

/**
 * The policy: one row per registered route (method and Fastify pattern). HEAD and OPTIONS are left out:
 * Fastify answers HEAD with the GET handler, and OPTIONS /v0* is the storage CORS preflight.
 */
const ROUTES: Record<string, Row> = {
  'GET /api/openapi.json': { policy: everyone(200), request: () => jsonRequest('GET', '/api/openapi.json') },
  'GET /api/health': { policy: everyone(200), request: () => jsonRequest('GET', '/api/health') },
  'GET /api/ready': { policy: everyone(200), request: () => jsonRequest('GET', '/api/ready') },
  // Only the scraper's token opens it: a session, an admin's included, does not.
  'GET /metrics': { policy: everyone(401), request: () => jsonRequest('GET', '/metrics') },

  'POST /api/auth/signup': {
    policy: everyone(201),
    request: () => {
      const form = new FormData();
      form.set('email', uniqueEmail('matrix-signup'));
      form.set('password', PASSWORD);
      form.set('displayName', `Signup ${randomBytes(4).toString('hex')}`);
      form.set('thumbnail', new Blob([new Uint8Array(makePng())], { type: 'image/png' }), 'avatar.png');
      return { method: 'POST', path: '/api/auth/signup', form };
    },
  },
  'POST /api/auth/login': {
    policy: everyone(200),
    request: (world) =>
      jsonRequest('POST', '/api/auth/login', { email: world.owner.email, password: PASSWORD }),
  },
  'POST /api/auth/logout': { policy: everyone(204), request: () => jsonRequest('POST', '/api/auth/logout') },
  // Only the cookie mints: an id token may not renew itself.
  'POST /api/auth/token': {
    policy: { ...signedIn(200), idToken: 403 },
    request: () => jsonRequest('POST', '/api/auth/token'),
  },
  // Public, but the answer says who is signed in: nobody for a deactivated member, the owner for the token.
  'GET /api/auth/session': {
    policy: everyone(200),
    request: () => jsonRequest('GET', '/api/auth/session'),
    answers: (body, world, caller) => {
      const uid = (body as { user: { uid: string } | null }).user?.uid ?? null;
      const signedInAs =
        caller === 'anonymous' || caller === 'deactivated'
          ? uid === null
          : caller === 'owner' || caller === 'idToken' || caller === 'apiToken'
            ? uid === world.owner.id
            : uid !== null && uid !== world.owner.id;
      return signedInAs ? undefined : `signed in as ${uid}`;
    },
  },
  'GET /api/auth/options': { policy: everyone(200), request: () => jsonRequest('GET', '/api/auth/options') },
  // Browser navigations that always redirect: to the provider, or (here, none configured) to the login page.
  'GET /api/auth/oidc/:provider/start': {
    policy: everyone(302),
    request: () => jsonRequest('GET', '/api/auth/oidc/corp/start'),
  },
  'GET /api/auth/oidc/:provider/callback': {
    policy: everyone(302),
    request: () => jsonRequest('GET', '/api/auth/oidc/corp/callback?code=c&state=s'),
  },
  'GET /api/invitations/:token': {
    policy: everyone(200),
    request: (_world, shared) =>
      jsonRequest('GET', `/api/invitations/${encodeURIComponent(shared.invitationToken)}`),
  },
  'POST /api/auth/password-reset/request': {
    policy: everyone(202),
    request: (world) => jsonRequest('POST', '/api/auth/password-reset/request', { email: world.owner.email }),
  },
  'GET /api/auth/password-reset/:token': {
    policy: everyone(200),
    request: (_world, shared) =>
      jsonRequest('GET', `/api/auth/password-reset/${encodeURIComponent(shared.resetToken)}`),
  },
  'POST /api/auth/password-reset': {
    policy: everyone(204),
    needs: ['reset-token'],
    request: (world) =>
      jsonRequest('POST', '/api/auth/password-reset', { token: world.resetToken, password: NEW_PASSWORD }),
  },
  // A passkey sign-in proves itself by the authenticator's answer to a challenge, not by who calls; a real
  // answer needs an authenticator (src/server/passkeys/passkeys.int.test.ts), so past the policy these get
  // the 400 of a request without one.
  'POST /api/auth/passkey/options': {
    policy: everyone(200),
    request: () => jsonRequest('POST', '/api/auth/passkey/options'),
  },
  'POST /api/auth/passkey': {
    policy: everyone(400),
    request: () => jsonRequest('POST', '/api/auth/passkey', { flow: 'no-such-flow' }),
  },
  'POST /api/auth/second-step/passkey/options': {
    policy: everyone(400),
    request: () => jsonRequest('POST', '/api/auth/second-step/passkey/options', {}),
  },
  'POST /api/auth/second-step/passkey': {
    policy: everyone(400),
    request: () => jsonRequest('POST', '/api/auth/second-step/passkey', { flow: 'no-such-flow' }),
  },
  // Public: a session changes nothing. A body without its code (or flow) is 400 for every caller alike; an
  // unknown flow's 401 is tested in src/server/auth/second-step/second-step.int.test.ts.
  'POST /api/auth/second-step': {
    policy: everyone(400),
    request: () => jsonRequest('POST', '/api/auth/second-step', { flow: 'no-such-flow' }),
  },
  'POST /api/auth/second-step/enrol': {
    policy: everyone(400),
    request: () => jsonRequest('POST', '/api/auth/second-step/enrol', {}),
  },
  'POST /api/auth/second-step/enrol/confirm': {
    policy: everyone(400),
    request: () => jsonRequest('POST', '/api/auth/second-step/enrol/confirm', { flow: 'no-such-flow' }),
  },

  'GET /api/users': { policy: signedIn(200), request: () => jsonRequest('GET', '/api/users') },

  'GET /api/admin/members': {
    policy: adminOnly(200),
    request: () => jsonRequest('GET', '/api/admin/members'),
  },
  'PATCH /api/admin/members/:id': {
    policy: adminOnly(200),
    request: (world) => jsonRequest('PATCH', `/api/admin/members/${world.owner.id}`, { role: 'admin' }),
  },
  'POST /api/admin/members/:id/deactivate': {
    policy: adminOnly(200),
    request: (world) => jsonRequest('POST', `/api/admin/members/${world.owner.id}/deactivate`),
  },
  'POST /api/admin/members/:id/reactivate': {
    policy: adminOnly(200),
    request: (world) => jsonRequest('POST', `/api/admin/members/${world.dormantMemberId}/reactivate`),
  },
  'POST /api/admin/members/:id/password-reset': {
    policy: adminOnly(201),
    request: (world) => jsonRequest('POST', `/api/admin/members/${world.owner.id}/password-reset`),
  },
  'GET /api/admin/signup-policy': {
    policy: adminOnly(200),
    request: () => jsonRequest('GET', '/api/admin/signup-policy'),
  },
  // A real change (the default is open) that still admits the signups of this suite (example.com).
  'PUT /api/admin/signup-policy': {
    policy: adminOnly(200),
    request: () =>
      jsonRequest('PUT', '/api/admin/signup-policy', { mode: 'domains', domains: ['example.com'] }),
  },
  'GET /api/admin/sso-policy': {
    policy: adminOnly(200),
    request: () => jsonRequest('GET', '/api/admin/sso-policy'),
  },
  // Requiring it needs a provider (409 without); not requiring it is always allowed.
  'PUT /api/admin/sso-policy': {
    policy: adminOnly(200),
    request: () => jsonRequest('PUT', '/api/admin/sso-policy', { required: false }),
  },
  'POST /api/admin/members/:id/second-step/reset': {
    policy: adminOnly(204),
    request: (world) => jsonRequest('POST', `/api/admin/members/${world.owner.id}/second-step/reset`),
  },
  'GET /api/admin/second-step-policy': {
    policy: adminOnly(200),
    request: () => jsonRequest('GET', '/api/admin/second-step-policy'),
  },
  // 'off' (the default): any other policy would make this suite's logins ask for a second step.
  'PUT /api/admin/second-step-policy': {
    policy: adminOnly(200),
    request: () => jsonRequest('PUT', '/api/admin/second-step-policy', { policy: 'off' }),
  },
  'GET /api/admin/invitations': {
    policy: adminOnly(200),
    request: () => jsonRequest('GET', '/api/admin/invitations'),
  },
  'POST /api/admin/invitations': {
    policy: adminOnly(201),
    request: () => jsonRequest('POST', '/api/admin/invitations', { maxUses: 3 }),
  },
  'DELETE /api/admin/invitations/:id': {
    policy: adminOnly(200),
    request: (world) => jsonRequest('DELETE', `/api/admin/invitations/${world.invitationId}`),
  },

  'PATCH /api/account/profile': {
    policy: signedIn(200),
    request: () => {
      const form = new FormData();
      form.set('displayName', `Renamed ${randomBytes(4).toString('hex')}`);
      return { method: 'PATCH', path: '/api/account/profile', form };
    },
  },
  'POST /api/account/password': {
    policy: signedIn(204),
    request: () =>
      jsonRequest('POST', '/api/account/password', { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }),
  },
  'GET /api/account/sessions': {
    policy: signedIn(200),
    request: () => jsonRequest('GET', '/api/account/sessions'),
  },
  // Someone else's session is not found among one's own.
  'DELETE /api/account/sessions/:id': {
    policy: ownerOnly(204, 404),
    request: (world) => jsonRequest('DELETE', `/api/account/sessions/${world.otherSessionId}`),
  },
  'POST /api/account/sessions/sign-out-others': {
    policy: signedIn(204),
    request: () => jsonRequest('POST', '/api/account/sessions/sign-out-others'),
  },
  'GET /api/account/appearance': {
    policy: signedIn(200),
    request: () => jsonRequest('GET', '/api/account/appearance'),
  },
  'PUT /api/account/appearance': {
    policy: signedIn(200),
    request: () => jsonRequest('PUT', '/api/account/appearance', { theme: 'dark' }),
  },
  'POST /api/account/delete': {
    policy: signedIn(204),
    request: () => jsonRequest('POST', '/api/account/delete', { password: PASSWORD }),
  },
  'GET /api/admin/webhooks': {
    policy: adminOnly(200),
    request: () => jsonRequest('GET', '/api/admin/webhooks'),
  },
  // A public address literal: no name to resolve, and nothing listens there that the matrix would reach.
  'POST /api/admin/webhooks': {
    policy: adminOnly(201),
    request: () =>
      jsonRequest('POST', '/api/admin/webhooks', {
        url: 'https://192.0.2.10/hook',
        events: ['project.deleted'],
      }),
  },
  'PATCH /api/admin/webhooks/:id': {
    policy: adminOnly(200),
    request: (world) =>
      jsonRequest('PATCH', `/api/admin/webhooks/${world.webhookId}`, { events: ['project.created'] }),
  },
  'DELETE /api/admin/webhooks/:id': {
    policy: adminOnly(200),
    request: (world) => jsonRequest('DELETE', `/api/admin/webhooks/${world.webhookId}`),
  },
  'GET /api/admin/webhooks/:id/deliveries': {
    policy: adminOnly(200),
    request: (world) => jsonRequest('GET', `/api/admin/webhooks/${world.webhookId}/deliveries`),
  },
  'POST /api/admin/webhooks/:id/deliveries/:deliveryId/resend': {
    policy: adminOnly(201),
    request: (world) =>
      jsonRequest(
        'POST',
        `/api/admin/webhooks/${world.webhookId}/deliveries/${world.webhookDeliveryId}/resend`,
      ),
  },
  // A board with no cards: the import's job ends at once, and writes nothing.
  'POST /api/admin/imports/trello/preview': {
    policy: adminOnly(200),
    request: () =>
      jsonRequest('POST', '/api/admin/imports/trello/preview', { board: { name: 'Matrix', cards: [] } }),
  },
  'POST /api/admin/imports/trello': {
    policy: adminOnly(202),
    request: () => jsonRequest('POST', '/api/admin/imports/trello', { board: { name: 'Matrix', cards: [] } }),
  },
  'GET /api/admin/imports/:id': {
    policy: adminOnly(200),
    request: (world) => jsonRequest('GET', `/api/admin/imports/${world.importId}`),
  },
  'GET /api/account/api-tokens': {
    policy: signedIn(200),
    request: () => jsonRequest('GET', '/api/account/api-tokens'),
  },
  'POST /api/account/api-tokens': {
    policy: signedIn(201),
    request: () =>
      jsonRequest('POST', '/api/account/api-tokens', {
        name: 'Matrix token',
        scope: 'read',
        expiresInDays: 7,
      }),
  },
  // Someone else's token is not found among one's own.
  'DELETE /api/account/api-tokens/:id': {
    policy: ownerOnly(204, 404),
    needs: ['api-token'],
    request: (world) => jsonRequest('DELETE', `/api/account/api-tokens/${world.apiTokenId}`),
  },
  // The calendar feed's settings: account security, so an API token is refused 403 (apiTokensMayCall).
  'GET /api/account/calendar-feed': {
    policy: signedIn(200),
    request: () => jsonRequest('GET', '/api/account/calendar-feed'),
  },
  'PUT /api/account/calendar-feed': {
    policy: signedIn(200),
    request: () => jsonRequest('PUT', '/api/account/calendar-feed', { scope: 'mine' }),
  },
  // Each cell's owner has no feed: past the policy, a reset finds nothing to reset.
  'POST /api/account/calendar-feed/reset': {
    policy: signedIn(409),
    request: () => jsonRequest('POST', '/api/account/calendar-feed/reset'),
  },
  'DELETE /api/account/calendar-feed': {
    policy: signedIn(204),
    request: () => jsonRequest('DELETE', '/api/account/calendar-feed'),
  },
  // The feed's address is its only credential: a session or a token grants nothing there.
  'GET /api/calendar/:file': {
    policy: everyone(404),
    request: () => jsonRequest('GET', `/api/calendar/${'a'.repeat(43)}.ics`),
  },
  // Passkeys: the browser's own session only; an id token or an API token is refused 403.
  'GET /api/account/passkeys': {
    policy: { ...signedIn(200), idToken: 403 },
    request: () => jsonRequest('GET', '/api/account/passkeys'),
  },
  'POST /api/account/passkeys/options': {
    policy: { ...signedIn(200), idToken: 403 },
    request: () => jsonRequest('POST', '/api/account/passkeys/options'),
  },
  // A real credential needs an authenticator (src/server/passkeys/passkeys.int.test.ts): past the policy, an
  // answer with no credential is the service's 400.
  'POST /api/account/passkeys': {
    policy: { ...signedIn(400), idToken: 403 },
    request: () => jsonRequest('POST', '/api/account/passkeys', { flow: 'no-such-flow', name: 'Key' }),
  },
  // Someone else's passkey is not found among one's own.
  'PATCH /api/account/passkeys/:id': {
    policy: { ...ownerOnly(200, 404), idToken: 403 },
    request: (world) => jsonRequest('PATCH', `/api/account/passkeys/${world.passkeyId}`, { name: 'Renamed' }),
  },
  'DELETE /api/account/passkeys/:id': {
    policy: { ...ownerOnly(204, 404), idToken: 403 },
    request: (world) => jsonRequest('DELETE', `/api/account/passkeys/${world.passkeyId}`),
  },
  'GET /api/account/two-step': {
    policy: signedIn(200),
    request: () => jsonRequest('GET', '/api/account/two-step'),
  },
  'POST /api/account/two-step/totp': {
    policy: signedIn(200),
    request: () => jsonRequest('POST', '/api/account/two-step/totp'),
  },
  // The cell's member has no secret to confirm and TOTP off: 409 is the service's answer past the policy.
  'POST /api/account/two-step/totp/confirm': {
    policy: signedIn(409),
    request: () => jsonRequest('POST', '/api/account/two-step/totp/confirm', { code: '123456' }),
  },
  'POST /api/account/two-step/recovery-codes': {
    policy: signedIn(409),
    request: () => jsonRequest('POST', '/api/account/two-step/recovery-codes', { password: PASSWORD }),
  },
  'POST /api/account/two-step/off': {
    policy: signedIn(409),
    request: () => jsonRequest('POST', '/api/account/two-step/off', { password: PASSWORD }),
  },

  'GET /api/projects': { policy: signedIn(200), request: () => jsonRequest('GET', '/api/projects') },
  'POST /api/projects': {
    policy: signedIn(201),
    request: (world) => jsonRequest('POST', '/api/projects', projectInput(world)),
  },
  'GET /api/projects/:id': {
    policy: signedIn(200),
    request: (world) => jsonRequest('GET', `/api/projects/${world.projectId}`),
  },
  'PATCH /api/projects/:id': {
    policy: ownerOrAdmin(200),
    request: (world) =>
      jsonRequest('PATCH', `/api/projects/${world.projectId}`, { ...projectInput(world), version: 1 }),
  },
  // Mark as Complete: its creator only.
  'DELETE /api/projects/:id': {
    policy: ownerOnly(204, 403),
    request: (world) => jsonRequest('DELETE', `/api/projects/${world.projectId}`),
  },
  'GET /api/projects/:id/comments': {
    policy: signedIn(200),
    request: (world) => jsonRequest('GET', `/api/projects/${world.projectId}/comments`),
  },
  'POST /api/projects/:id/comments': {
    policy: signedIn(201),
    request: (world) =>
      jsonRequest('POST', `/api/projects/${world.projectId}/comments`, { content: 'A matrix comment' }),
  },
  'PATCH /api/projects/:id/comments/:commentId': {
    policy: ownerOnly(200, 403),
    request: (world) =>
      jsonRequest('PATCH', `/api/projects/${world.projectId}/comments/${world.commentId}`, {
        content: 'Edited by the matrix',
      }),
  },
  'DELETE /api/projects/:id/comments/:commentId': {
    policy: ownerOnly(204, 403),
    request: (world) => jsonRequest('DELETE', `/api/projects/${world.projectId}/comments/${world.commentId}`),
  },
  // Attachments (docs/decisions/073-attachments.md): every member reads them; the uploader registers their
  // own upload (an object that does not exist here: 404 for the owner, 403 for anyone else's).
  'GET /api/attachments/limits': {
    policy: signedIn(200),
    request: () => jsonRequest('GET', '/api/attachments/limits'),
  },
  'GET /api/projects/:id/attachments': {
    policy: signedIn(200),
    request: (world) => jsonRequest('GET', `/api/projects/${world.projectId}/attachments`),
  },
  'POST /api/projects/:id/attachments': {
    policy: ownerOnly(404, 403),
    request: (world) =>
      jsonRequest('POST', `/api/projects/${world.projectId}/attachments`, {
        objectName: `attachments/${world.projectId}/${world.owner.id}/matrix/none.txt`,
      }),
  },
  // The uploader (here also the project's creator) or an admin.
  'DELETE /api/attachments/:id': {
    policy: ownerOrAdmin(204),
    request: (world) => jsonRequest('DELETE', `/api/attachments/${world.attachmentId}`),
  },
  'GET /api/attachments/:id/content': {
    policy: signedIn(200),
    needs: ['object'],
    request: (world) => jsonRequest('GET', `/api/attachments/${world.attachmentId}/content`),
  },
  'GET /api/attachments/:id/thumbnail': {
    policy: signedIn(200),
    needs: ['object'],
    request: (world) => jsonRequest('GET', `/api/attachments/${world.attachmentId}/thumbnail`),
  },
  'GET /api/completed-projects': {
    policy: signedIn(200),
    request: () => jsonRequest('GET', '/api/completed-projects'),
  },
  'GET /api/completed-projects/:id': {
    policy: signedIn(200),
    request: (world) => jsonRequest('GET', `/api/completed-projects/${world.completedProjectId}`),
  },
  'POST /api/completed-projects/:id/reopen': {
    policy: ownerOrAdmin(200),
    request: (world) => jsonRequest('POST', `/api/completed-projects/${world.completedProjectId}/reopen`),
  },
  'DELETE /api/completed-projects/:id': {
    policy: ownerOrAdmin(204),
    request: (world) => jsonRequest('DELETE', `/api/completed-projects/${world.completedProjectId}`),
  },
  'GET /api/search': { policy: signedIn(200), request: () => jsonRequest('GET', '/api/search?q=matrix') },
  // The exports read as their lists do: every signed-in caller, an API token too (a read).
  'GET /api/projects/export': {
    policy: signedIn(200),
    request: () => jsonRequest('GET', '/api/projects/export?format=csv'),
  },
  'GET /api/completed-projects/export': {
    policy: signedIn(200),
    request: () => jsonRequest('GET', '/api/completed-projects/export?format=json'),
  },
  'GET /api/search/export': {
    policy: signedIn(200),
    request: () => jsonRequest('GET', '/api/search/export?q=matrix'),
  },

  'GET /api/notifications': {
    policy: signedIn(200),
    request: () => jsonRequest('GET', '/api/notifications'),
  },
  // Another member's notification answers 404, as one that does not exist.
  'POST /api/notifications/:id/read': {
    policy: ownerOnly(204, 404),
    request: (world) => jsonRequest('POST', `/api/notifications/${world.notificationId}/read`),
  },
  'POST /api/notifications/read-all': {
    policy: signedIn(204),
    request: () => jsonRequest('POST', '/api/notifications/read-all'),
  },
  'GET /api/notifications/preferences': {
    policy: signedIn(200),
    request: () => jsonRequest('GET', '/api/notifications/preferences'),
  },
  'PUT /api/notifications/preferences': {
    policy: signedIn(200),
    request: () =>
      jsonRequest('PUT', '/api/notifications/preferences', {
        preferences: [{ kind: 'commented', inApp: false, email: 'off' }],
      }),
  },
  // The signed token is the authority; the page itself changes nothing, and a forged token is refused.
  'GET /api/notifications/unsubscribe': {
    policy: everyone(200),
    request: () => jsonRequest('GET', '/api/notifications/unsubscribe?token=forged'),
  },
  'POST /api/notifications/unsubscribe': {
    policy: everyone(400),
    request: () => jsonRequest('POST', '/api/notifications/unsubscribe?token=forged'),
  },

  'POST /api/app-check/token': {
    policy: everyone(200),
    request: () => jsonRequest('POST', '/api/app-check/token'),
  },
  // A plain GET with credentials asks for the upgrade.
  'GET /live': { policy: signedIn(426), request: () => jsonRequest('GET', '/live') },

  'GET /v0/b/:bucket/o': {
    policy: signedIn(200),
    request: (world) =>
      jsonRequest('GET', `/v0/b/${BUCKET}/o?prefix=${encodeURIComponent(`files/${world.owner.id}/`)}`),
  },
  // Every signed-in member may read; only the owner writes under files/{owner}/.
  'POST /v0/b/:bucket/o': {
    policy: ownerOnly(200, 403),
    request: (world) => ({
      method: 'POST',
      path: `/v0/b/${BUCKET}/o?name=${encodeURIComponent(`files/${world.owner.id}/upload.txt`)}`,
      headers: { 'content-type': 'text/plain' },
      body: 'written by the matrix',
    }),
  },
  'GET /v0/b/:bucket/o/*': {
    policy: signedIn(200),
    needs: ['object'],
    request: (world) => jsonRequest('GET', objectPath(world.objectName)),
  },
  'PATCH /v0/b/:bucket/o/*': {
    policy: ownerOnly(200, 403),
    needs: ['object'],
    request: (world) => jsonRequest('PATCH', objectPath(world.objectName), { contentLanguage: 'fr' }),
  },
  'DELETE /v0/b/:bucket/o/*': {
    policy: ownerOnly(204, 403),
    needs: ['object'],
    request: (world) => jsonRequest('DELETE', objectPath(world.objectName)),
  },
};

interface Cell {
  route: string;
  caller: Caller;
  expected: number;
  world: World;
  /** The caller's credentials as request headers. */
  credentials: Record<string, string>;
}

let server: TestServer;
let inbox: SmtpInbox;
let shared: Shared;
let cells: Cell[];

const cookieHeader = (token: string) => ({ cookie: `dojo_session=${token}` });

async function send(request: CellRequest, credentials: Record<string, string>): Promise<Response> {
  const headers: Record<string, string> = { ...credentials, ...request.headers };
  let body: BodyInit | undefined = request.body ?? request.form;
  if (request.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.json);
  }
  return fetch(`${server.url}${request.path}`, { method: request.method, headers, body, redirect: 'manual' });
}

/** A JSON request that must succeed, for the fixtures made through the API. */
async function call<T>(
  request: CellRequest,
  credentials: Record<string, string>,
  status: number,
): Promise<T> {
  const response = await send(request, credentials);
  const text = await response.text();
  expect(response.status, `${request.method} ${request.path}: ${text}`).toBe(status);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Runs `task` over `items`, at most `limit` at a time. */
async function eachLimited<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await task(items[next++] as T);
    }),
  );
}

/**
 * Users, sessions, projects, comments, notifications and invitations for every cell, written straight into
 * the database in a few multi-row inserts.
 */
async function writeWorlds(
  specs: { route: string; caller: Caller }[],
  fixtureAdminId: string,
): Promise<{ worlds: World[]; credentials: Record<string, string>[]; ownerSessions: string[] }> {
  const passwordHash = await hashPassword(PASSWORD);
  const now = new Date().toISOString();
  const expires = new Date(Date.now() + 7 * 86_400_000).toISOString();
  const users: Parameters<typeof userRow>[0][] = [];
  const sessions: { token: string; userId: string }[] = [];
  const projects: { id: string; createdBy: string; completed: boolean }[] = [];
  const comments: { id: string; projectId: string; authorId: string }[] = [];
  const notifications: { id: string; userId: string; projectId: string; actorId: string }[] = [];
  const invitations: { id: string }[] = [];
  const passkeys: { id: string; userId: string }[] = [];
  const worlds: World[] = [];
  const credentials: Record<string, string>[] = [];
  const ownerSessions: string[] = [];

  const webhooks: { id: string; deliveryId: string }[] = [];
  const importIds: string[] = [];
  specs.forEach(({ route, caller }, index) => {
    const tag = `m${index}-${randomBytes(3).toString('hex')}`;
    const owner = { id: `${tag}-owner`, email: `${tag}-owner@example.com` };
    const dormantMemberId = `${tag}-dormant`;
    users.push({ id: owner.id, role: 'member', status: 'active' });
    users.push({ id: dormantMemberId, role: 'member', status: 'deactivated' });
    const ownerToken = randomBytes(24).toString('base64url');
    const secondToken = randomBytes(24).toString('base64url');
    sessions.push({ token: ownerToken, userId: owner.id }, { token: secondToken, userId: owner.id });
    ownerSessions.push(ownerToken);

    // The id token caller's bearer token is minted once the owner's session exists (beforeAll).
    let callerCredentials: Record<string, string> = {};
    if (caller === 'owner') {
      callerCredentials = cookieHeader(ownerToken);
    } else if (caller === 'other' || caller === 'admin' || caller === 'deactivated') {
      const callerId = `${tag}-${caller}`;
      users.push({
        id: callerId,
        role: caller === 'admin' ? 'admin' : 'member',
        status: caller === 'deactivated' ? 'deactivated' : 'active',
      });
      const token = randomBytes(24).toString('base64url');
      // A deactivated member's session row that outlived the deactivation must still sign nobody in.
      sessions.push({ token, userId: callerId });
      callerCredentials = cookieHeader(token);
    }

    const projectId = `${tag}-project`;
    const completedProjectId = `${tag}-done`;
    projects.push(
      { id: projectId, createdBy: owner.id, completed: false },
      { id: completedProjectId, createdBy: owner.id, completed: true },
    );
    const commentId = `${tag}-comment`;
    comments.push({ id: commentId, projectId, authorId: owner.id });
    const notificationId = `${tag}-notification`;
    notifications.push({ id: notificationId, userId: owner.id, projectId, actorId: fixtureAdminId });
    const invitationId = `${tag}-invitation`;
    invitations.push({ id: invitationId });
    const passkeyId = `${tag}-passkey`;
    passkeys.push({ id: passkeyId, userId: owner.id });
    const attachmentId = `${tag}-attachment`;
    // Only where an admin calls: endpoints are few per install (refused callers never reach the lookup).
    const webhookId = `${tag}-webhook`;
    const webhookDeliveryId = `${tag}-delivery`;
    if (caller === 'admin' && route.includes('/api/admin/webhooks/:id')) {
      webhooks.push({ id: webhookId, deliveryId: webhookDeliveryId });
    }
    const importId = `${tag}-import`;
    if (caller === 'admin' && route.includes('/api/admin/imports/:id')) importIds.push(importId);
    worlds.push({
      owner,
      projectId,
      completedProjectId,
      commentId,
      notificationId,
      otherSessionId: publicSessionId(hashSessionToken(secondToken)),
      dormantMemberId,
      invitationId,
      objectName: `files/${owner.id}/matrix.txt`,
      resetToken: '',
      apiTokenId: '',
      passkeyId,
      attachmentId,
      webhookId,
      webhookDeliveryId,
      importId,
    });
    credentials.push(callerCredentials);
  });

  const database = await openDatabase({ dataDir: server.dataDir, databaseUrl: server.databaseUrl });
  try {
    await database.db.transaction().execute(async (trx) => {
      for (const chunk of chunks(users)) {
        await trx
          .insertInto('users')
          .values(chunk.map((user) => userRow(user, passwordHash, now)))
          .execute();
      }
      for (const chunk of chunks(sessions)) {
        await trx
          .insertInto('sessions')
          .values(
            chunk.map(({ token, userId }) => ({
              token_hash: hashSessionToken(token),
              user_id: userId,
              created_at: now,
              expires_at: expires,
              user_agent: 'route matrix',
              last_seen_at: now,
            })),
          )
          .execute();
      }
      for (const chunk of chunks(projects)) {
        await trx
          .insertInto('projects')
          .values(
            chunk.map(({ id, createdBy, completed }) => ({
              id,
              name: `Matrix ${id}`,
              details: 'A project of the route matrix',
              due_date: '2031-01-01',
              category: 'development',
              created_by: createdBy,
              created_at: now,
              updated_at: now,
              completed_at: completed ? now : null,
              completed_by: completed ? createdBy : null,
            })),
          )
          .execute();
        await trx
          .insertInto('project_assignees')
          .values(chunk.map(({ id, createdBy }) => ({ project_id: id, user_id: createdBy, position: 0 })))
          .execute();
      }
      for (const chunk of chunks(comments)) {
        await trx
          .insertInto('comments')
          .values(
            chunk.map(({ id, projectId, authorId }) => ({
              id,
              project_id: projectId,
              author_id: authorId,
              content: 'A comment of the route matrix',
              created_at: now,
              edited_at: null,
            })),
          )
          .execute();
      }
      for (const chunk of chunks(notifications)) {
        await trx
          .insertInto('notifications')
          .values(
            chunk.map(({ id, userId, projectId, actorId }) => ({
              id,
              user_id: userId,
              kind: 'assigned',
              project_id: projectId,
              comment_id: null,
              actor_id: actorId,
              dedupe_key: null,
              created_at: now,
              read_at: null,
            })),
          )
          .execute();
      }
      for (const chunk of chunks(worlds)) {
        // Its bytes and thumbnail are both the owner's object: only a route's bytes, not their kind, matter here.
        await trx
          .insertInto('attachments')
          .values(
            chunk.map((world) => ({
              id: world.attachmentId,
              project_id: world.projectId,
              comment_id: null,
              uploader_id: world.owner.id,
              object_name: world.objectName,
              name: 'matrix.txt',
              search_name: 'matrix.txt',
              size: 14,
              content_type: 'text/plain; charset=utf-8',
              kind: 'text' as const,
              thumbnail_name: world.objectName,
              created_at: now,
            })),
          )
          .execute();
      }
      for (const chunk of chunks(passkeys)) {
        await trx
          .insertInto('passkeys')
          .values(
            chunk.map(({ id, userId }) => ({
              id,
              user_id: userId,
              name: 'Matrix passkey',
              public_key: 'AAAA',
              counter: 0,
              transports: '[]',
              created_at: now,
              last_used_at: null,
            })),
          )
          .execute();
      }
      for (const chunk of chunks(invitations)) {
        await trx
          .insertInto('invitations')
          .values(
            chunk.map(({ id }) => ({
              id,
              token_hash: randomBytes(32).toString('base64url'),
              email: null,
              max_uses: 1,
              uses: 0,
              expires_at: expires,
              revoked_at: null,
              created_by: fixtureAdminId,
              created_at: now,
            })),
          )
          .execute();
      }
      for (const { id, deliveryId } of webhooks) {
        await trx
          .insertInto('webhook_endpoints')
          .values({
            id,
            url: 'https://192.0.2.10/hook',
            events: '["project.created"]',
            secret: randomBytes(24).toString('base64url'),
            enabled: 0,
            disabled_at: now,
            disabled_reason: 'Disabled by the route matrix.',
            created_by: fixtureAdminId,
            created_at: now,
            updated_at: now,
          })
          .execute();
        await trx
          .insertInto('webhook_deliveries')
          .values({
            id: deliveryId,
            endpoint_id: id,
            event: 'project.created',
            project_id: null,
            payload: '{}',
            status: 'delivered',
            next_attempt_at: null,
            last_attempt_at: null,
            response_status: 200,
            duration_ms: 1,
            response_excerpt: 'ok',
            created_at: now,
          })
          .execute();
      }
      for (const id of importIds) {
        await trx
          .insertInto('import_jobs')
          .values({
            id,
            source: 'trello',
            status: 'completed',
            title: 'Matrix board',
            payload: '',
            total_items: 0,
            error: null,
            claimed_by: null,
            claimed_until: null,
            created_by: fixtureAdminId,
            created_at: now,
            updated_at: now,
            finished_at: now,
          })
          .execute();
      }
    });
  } finally {
    await database.close();
  }
  return { worlds, credentials, ownerSessions };
}

function userRow(
  user: { id: string; role: 'admin' | 'member'; status: 'active' | 'deactivated' },
  passwordHash: string,
  now: string,
) {
  const displayName = `Matrix ${user.id}`;
  return {
    id: user.id,
    email: `${user.id}@example.com`,
    email_key: `${user.id}@example.com`,
    password_hash: passwordHash,
    display_name: displayName,
    search_name: nameSearchKey(displayName),
    photo_url: '',
    online: 0,
    role: user.role,
    status: user.status,
    last_active_at: null,
    created_at: now,
    updated_at: now,
  };
}

function chunks<T>(items: T[], size = 200): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, index) =>
    items.slice(index * size, (index + 1) * size),
  );
}

/** Columns and tables that any request may touch without changing anything a person could see. */
const VOLATILE: Record<string, string[] | 'table'> = {
  users: ['online', 'last_active_at'],
  sessions: ['last_seen_at'],
  live_presence: 'table',
  project_viewers: 'table',
  rate_limits: 'table',
  // Taken and released by the webhook dispatcher of every instance as it looks for deliveries to send.
  webhook_endpoints: ['claimed_by', 'claimed_until'],
};

/** Every row of every table, volatile columns aside, as sorted JSON lines per table. */
async function readEverything(): Promise<Record<string, string[]>> {
  const database = await openDatabase({ dataDir: server.dataDir, databaseUrl: server.databaseUrl });
  try {
    const tables = (await database.db.introspection.getTables()).map((table) => table.name);
    const snapshot: Record<string, string[]> = {};
    for (const table of tables.filter((name) => !name.startsWith('kysely_') && VOLATILE[name] !== 'table')) {
      const volatile = VOLATILE[table];
      const rows = (await database.db
        .selectFrom(table as 'users')
        .selectAll()
        .execute()) as Record<string, unknown>[];
      snapshot[table] = rows
        .map((row) => {
          const kept = Object.entries(row).filter(
            ([column]) => !(Array.isArray(volatile) && volatile.includes(column)),
          );
          return JSON.stringify(Object.fromEntries(kept));
        })
        .sort();
    }
    return snapshot;
  } finally {
    await database.close();
  }
}

/** The rows that are in one snapshot and not the other, by table. */
function differences(before: Record<string, string[]>, after: Record<string, string[]>): string[] {
  const lines: string[] = [];
  for (const table of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const old = new Set(before[table] ?? []);
    const now = new Set(after[table] ?? []);
    for (const row of old) if (!now.has(row)) lines.push(`${table} − ${row}`);
    for (const row of now) if (!old.has(row)) lines.push(`${table} + ${row}`);
  }
  return lines;
}

type OpenApi = { paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>> };

/** Fastify path → OpenAPI path: `:id` → `{id}`, the storage wildcard → `{object}`. */
const toOpenApiPath = (url: string): string => url.replace(/:(\w+)/g, '{$1}').replace(/\/\*$/, '/{object}');

const registeredRoutes = () =>
  server.app
    .registeredRoutes()
    .filter((route) => route.method !== 'HEAD' && route.method !== 'OPTIONS')
    .map((route) => `${route.method} ${route.url}`);

beforeAll(async () => {
  inbox = await SmtpInbox.start();
  server = await startTestServer({
    configOverrides: { metricsToken: METRICS_TOKEN, smtpUrl: inbox.url, publicUrl: 'http://dojo.test' },
  });

  // An admin for what only the API makes: links whose tokens exist nowhere else.
  const adminToken = randomBytes(24).toString('base64url');
  const fixtureAdminId = `matrix-admin-${randomBytes(3).toString('hex')}`;
  const database = await openDatabase({ dataDir: server.dataDir, databaseUrl: server.databaseUrl });
  try {
    const now = new Date().toISOString();
    await database.db
      .insertInto('users')
      .values(
        userRow({ id: fixtureAdminId, role: 'admin', status: 'active' }, await hashPassword(PASSWORD), now),
      )
      .execute();
    await database.db
      .insertInto('sessions')
      .values({
        token_hash: hashSessionToken(adminToken),
        user_id: fixtureAdminId,
        created_at: now,
        expires_at: new Date(Date.now() + 86_400_000).toISOString(),
        user_agent: 'route matrix',
        last_seen_at: now,
      })
      .execute();
  } finally {
    await database.close();
  }
  const admin = cookieHeader(adminToken);

  const specs = Object.keys(ROUTES).flatMap((route) => CALLERS.map((caller) => ({ route, caller })));
  const { worlds, credentials, ownerSessions } = await writeWorlds(specs, fixtureAdminId);
  cells = specs.map(({ route, caller }, index) => ({
    route,
    caller,
    expected: expectedStatus(route, caller),
    world: worlds[index]!,
    credentials: credentials[index]!,
  }));

  const tokenOf = (link: string, parameter: string) =>
    new URL(link, server.url).searchParams.get(parameter) ?? '';
  const invitation = await call<{ url: string }>(
    jsonRequest('POST', '/api/admin/invitations', {}),
    admin,
    201,
  );
  const sharedReset = await call<{ url: string }>(
    jsonRequest('POST', `/api/admin/members/${fixtureAdminId}/password-reset`),
    admin,
    201,
  );
  shared = {
    invitationToken: tokenOf(invitation.url, 'invitation'),
    resetToken: tokenOf(sharedReset.url, 'token'),
  };

  await eachLimited(
    cells.map((cell, index) => ({ cell, ownerSession: ownerSessions[index]! })),
    4,
    async ({ cell, ownerSession }) => {
      const needs = ROUTES[cell.route]!.needs ?? [];
      const { world } = cell;
      if (needs.includes('reset-token')) {
        const link = await call<{ url: string }>(
          jsonRequest('POST', `/api/admin/members/${world.owner.id}/password-reset`),
          admin,
          201,
        );
        world.resetToken = tokenOf(link.url, 'token');
      }
      if (needs.includes('object')) {
        await call(
          {
            method: 'POST',
            path: `/v0/b/${BUCKET}/o?name=${encodeURIComponent(world.objectName)}`,
            headers: { 'content-type': 'text/plain' },
            body: 'the owner file',
          },
          cookieHeader(ownerSession),
          200,
        );
      }
      if (cell.caller === 'idToken') {
        const { idToken } = await call<{ idToken: string }>(
          jsonRequest('POST', '/api/auth/token'),
          cookieHeader(ownerSession),
          200,
        );
        cell.credentials = { authorization: `Bearer ${idToken}` };
      }
      if (needs.includes('api-token')) {
        const { token } = await call<{ token: { id: string } }>(
          jsonRequest('POST', '/api/account/api-tokens', {
            name: 'Revoked by the matrix',
            scope: 'read',
            expiresInDays: 7,
          }),
          cookieHeader(ownerSession),
          201,
        );
        world.apiTokenId = token.id;
      }
      if (cell.caller === 'apiToken') {
        const { secret } = await call<{ secret: string }>(
          jsonRequest('POST', '/api/account/api-tokens', {
            name: 'Route matrix',
            scope: 'write',
            expiresInDays: 7,
          }),
          cookieHeader(ownerSession),
          201,
        );
        cell.credentials = { authorization: `Bearer ${secret}` };
      }
    },
  );
  // The unsubscribe secret is made on first use: made now, a refused unsubscribe below changes nothing.
  await send(jsonRequest('POST', '/api/notifications/unsubscribe?token=forged'), {});
}, MATRIX_TIMEOUT_MS);

afterAll(async () => {
  await server?.stop();
  await inbox?.stop();
});

describe('route × caller matrix', () => {
  it('has one policy row for every route the server registers, and no row for a route it does not', () => {
    const registered = registeredRoutes();
    expect(registered.length).toBeGreaterThanOrEqual(50);
    expect(registered.filter((route) => !(route in ROUTES))).toEqual([]);
    expect(Object.keys(ROUTES).filter((route) => !registered.includes(route))).toEqual([]);
  });

  it("agrees with each operation's OpenAPI security", async () => {
    const document = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as OpenApi;
    const disagreements: string[] = [];
    for (const [route, { policy }] of Object.entries(ROUTES)) {
      const [method = '', url = ''] = route.split(' ');
      const security = document.paths[toOpenApiPath(url)]?.[method.toLowerCase()]?.security;
      if (!security) {
        disagreements.push(`${route}: no security in the document`);
        continue;
      }
      const schemes = security.flatMap((requirement) => Object.keys(requirement));
      const roles = security.flatMap((requirement) => Object.values(requirement).flat());
      const status = (caller: Caller) => expectedStatus(route, caller);
      const refused = (caller: Caller) => status(caller) >= 400;
      const problem =
        security.length === 0
          ? // Public: nobody is told to sign in, and credentials change nothing.
            CALLERS.some((caller) => status(caller) === 401 || status(caller) !== policy.anonymous) &&
            'public in the document, but its callers are not treated alike'
          : policy.anonymous !== 401 || policy.deactivated !== 401
            ? 'protected in the document, but anonymous or deactivated callers get in'
            : roles.includes('admin') && (!refused('owner') || !refused('other') || refused('admin'))
              ? 'for admins in the document, but the policy lets members in or keeps admins out'
              : !schemes.includes('idToken') && !refused('idToken')
                ? 'takes no id token in the document, but the policy lets one in'
                : schemes.includes('idToken') && roles.length === 0 && policy.idToken !== policy.owner
                  ? 'takes an id token in the document, but the token is not worth the cookie'
                  : !schemes.includes('apiToken') && !refused('apiToken')
                    ? 'takes no API token in the document, but the policy lets one in'
                    : schemes.includes('apiToken') &&
                        roles.length === 0 &&
                        status('apiToken') !== policy.owner
                      ? 'takes an API token in the document, but the token is not worth the cookie'
                      : false;
      if (problem) disagreements.push(`${route}: ${problem}`);
    }
    expect(disagreements).toEqual([]);
  });

  it(
    'refuses every caller the policy refuses, with a JSON error, and the refusals change nothing',
    async () => {
      const refusals = cells.filter((cell) => cell.expected >= 400);
      expect(refusals.length).toBeGreaterThan(100);
      const before = await readEverything();
      const outcomes: string[] = [];
      await eachLimited(refusals, 4, async (cell) => {
        const response = await send(ROUTES[cell.route]!.request(cell.world, shared), cell.credentials);
        const text = await response.text();
        let message: unknown;
        try {
          message = (JSON.parse(text) as ErrorBody).error.message;
        } catch {
          message = undefined;
        }
        const problems = [
          response.status !== cell.expected && `answered ${response.status}, expected ${cell.expected}`,
          (typeof message !== 'string' || message === '') &&
            `no JSON error with a message: ${text.slice(0, 200)}`,
          response.status === 429 && 'hit a rate limit (report it: the matrix sends one request per user)',
        ].filter(Boolean);
        if (problems.length > 0) outcomes.push(`${cell.route} as ${cell.caller}: ${problems.join('; ')}`);
      });
      const changed = differences(before, await readEverything());
      expect({ outcomes: outcomes.sort(), changed }).toEqual({ outcomes: [], changed: [] });
    },
    MATRIX_TIMEOUT_MS,
  );

  it(
    'lets every caller the policy allows through',
    async () => {
      const allowed = cells.filter((cell) => cell.expected < 400);
      expect(allowed.length).toBeGreaterThan(100);
      const outcomes: string[] = [];
      await eachLimited(allowed, 4, async (cell) => {
        const row = ROUTES[cell.route]!;
        const response = await send(row.request(cell.world, shared), cell.credentials);
        const text = await response.text();
        const wrongAnswer =
          response.status === cell.expected
            ? row.answers?.(JSON.parse(text), cell.world, cell.caller)
            : undefined;
        if (response.status !== cell.expected || wrongAnswer) {
          outcomes.push(
            `${cell.route} as ${cell.caller}: answered ${response.status}, expected ${cell.expected}: ${wrongAnswer ?? text.slice(0, 200)}`,
          );
        }
      });
      expect(outcomes.sort()).toEqual([]);
    },
    MATRIX_TIMEOUT_MS,
  );
});
