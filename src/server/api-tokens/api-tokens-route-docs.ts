import {
  ApiTokenListSchema,
  ApiTokenParamsSchema,
  CreateApiTokenSchema,
  CreatedApiTokenSchema,
} from '../../common/api-tokens';
import { describeRoutes, jsonBody } from '../http/api-docs';

const FROM_A_BROWSER =
  'From a browser session (cookie or id token) only: a request signed with an API token is refused 403.';

export const apiTokensRouteDocs = describeRoutes([
  {
    method: 'GET',
    path: '/api/account/api-tokens',
    tag: 'Account',
    summary:
      "The member's personal API tokens that have not expired: name, scope, created, expires, last used",
    description: `Never the secrets. ${FROM_A_BROWSER}`,
    caller: 'member',
    response: { status: 200, description: 'The tokens, newest first', schema: ApiTokenListSchema },
    errors: ['forbidden'],
  },
  {
    method: 'POST',
    path: '/api/account/api-tokens',
    tag: 'Account',
    summary: 'Creates a personal API token; the answer holds its secret, shown this once',
    description: `Scope 'read' (reads only) or 'write' (reads and writes, as its owner may); it lasts 7, 30, 90 or 365 days. Send the secret as \`Authorization: Bearer dojo_pat_…\` on the JSON API, the live socket and the storage protocol. Only its sha256 is stored. At most 20 live tokens per member (409 beyond). ${FROM_A_BROWSER}`,
    caller: 'member',
    body: jsonBody(CreateApiTokenSchema),
    response: { status: 201, description: 'The token and its secret', schema: CreatedApiTokenSchema },
    errors: ['forbidden', 'conflict', 'too-many-requests'],
  },
  {
    method: 'DELETE',
    path: '/api/account/api-tokens/{id}',
    tag: 'Account',
    summary: 'Revokes a token: it stops working at once on every instance',
    description: `Live sockets opened with it are signed out. ${FROM_A_BROWSER}`,
    caller: 'member',
    params: ApiTokenParamsSchema,
    response: { status: 204, description: 'Revoked' },
    errors: ['forbidden', 'not-found', 'too-many-requests'],
  },
]);
