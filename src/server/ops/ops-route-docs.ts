import { z } from 'zod';
import { describeRoutes } from '../http/api-docs';

const CheckOutcomeSchema = z.string().describe('`ok`, or why the check failed');

export const opsRouteDocs = describeRoutes([
  {
    method: 'GET',
    path: '/api/ready',
    tag: 'Operations',
    summary: 'Readiness: may this instance take traffic?',
    description:
      'Checks that the database answers, that file storage can take writes, and that the database has every ' +
      'migration this build expects, each within 2 s. 503 `unavailable` when one fails; its `fields` name the ' +
      'failed checks (`database`, `storage`, `migrations`) and why. `/api/health` stays the cheap liveness check.',
    caller: 'anyone',
    response: {
      status: 200,
      description: 'Ready',
      schema: z.object({
        status: z.literal('ready'),
        checks: z.object({
          database: CheckOutcomeSchema,
          storage: CheckOutcomeSchema,
          migrations: CheckOutcomeSchema,
        }),
      }),
    },
    errors: ['unavailable'],
  },
  {
    method: 'GET',
    path: '/metrics',
    tag: 'Operations',
    summary: 'Prometheus metrics (only when METRICS_TOKEN is set)',
    description:
      'Prometheus text exposition. Needs `Authorization: Bearer <METRICS_TOKEN>`; answers 401 without it, and ' +
      'answers a JSON 404 when METRICS_TOKEN is unset. See docs/deploy.md for the series.',
    caller: 'metrics-scraper',
    response: { status: 200, description: 'The metrics', contentType: 'text/plain; version=0.0.4' },
  },
]);
