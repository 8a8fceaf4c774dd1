import { z } from 'zod';
import { describeRoutes } from '../http/api-docs';

export const liveRouteDocs = describeRoutes([
  {
    method: 'GET',
    path: '/live',
    tag: 'Live',
    summary: 'WebSocket for live subscriptions and presence (upgrade)',
    description:
      'Upgrade to a WebSocket. Messages are JSON; see docs/api.md "Live data" for every message. Refused with 401 before the upgrade without a session cookie (same origin) or an id token; a plain GET with credentials but no upgrade gets 426.',
    caller: 'member',
    response: { status: 101, description: 'Switching protocols' },
    errors: ['upgrade-required'],
  },
  {
    method: 'GET',
    path: '/api/health',
    tag: 'Operations',
    summary: 'Liveness and database reachability',
    caller: 'anyone',
    response: {
      status: 200,
      description: 'Healthy',
      schema: z.object({ status: z.literal('ok'), database: z.enum(['sqlite', 'postgres']) }),
    },
    errors: ['internal'],
  },
]);
