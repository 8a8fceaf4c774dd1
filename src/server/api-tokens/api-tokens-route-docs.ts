import {
  ApiTokenListSchema,
  ApiTokenParamsSchema,
  CreateApiTokenSchema,
  CreatedApiTokenSchema,
} from '../../common/api-tokens';
import { describeRoutes, jsonBody } from '../http/api-docs';
import { refusesApiTokens } from '../http/route-doc-builders';

export const apiTokensRouteDocs = describeRoutes([
  refusesApiTokens({
    method: 'GET',
    path: '/api/account/api-tokens',
    summary:
      "The member's personal API tokens that have not expired: name, scope, created, expires, last used",
    description: 'Never the secrets.',
    response: { status: 200, description: 'The tokens, newest first', schema: ApiTokenListSchema },
  }),
  refusesApiTokens({
    method: 'POST',
    path: '/api/account/api-tokens',
    summary: 'Creates a personal API token; the answer holds its secret, shown this once',
    description: `Scope 'read' (reads only) or 'write' (reads and writes, as its owner may); it lasts 7, 30, 90 or 365 days. Send the secret as \`Authorization: Bearer dojo_pat_…\` on the JSON API, the live socket and the storage protocol. Only its sha256 is stored. At most 20 live tokens per member (409 beyond).`,
    body: jsonBody(CreateApiTokenSchema),
    response: { status: 201, description: 'The token and its secret', schema: CreatedApiTokenSchema },
    errors: ['conflict', 'too-many-requests'],
  }),
  refusesApiTokens({
    method: 'DELETE',
    path: '/api/account/api-tokens/{id}',
    summary: 'Revokes a token: it stops working at once on every instance',
    description: 'Live sockets opened with it are signed out.',
    params: ApiTokenParamsSchema,
    response: { status: 204, description: 'Revoked' },
    errors: ['not-found', 'too-many-requests'],
  }),
]);
