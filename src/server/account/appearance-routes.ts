import type { FastifyInstance } from 'fastify';
import { AppearanceSchema } from '../../common/appearance-schemas';
import { themeCookieSetter } from '../auth/auth-routes';
import { parseInput } from '../core/validate';
import type { ViewerResolver } from '../http/viewer-resolver';
import type { AppearanceService } from './appearance-service';

/**
 * The member's theme under /api/account/appearance. Both answers mirror it into the `dojo_theme` cookie
 * (as a sign-in does), from which the server sets `data-theme` on the pages it sends (no flash of the other
 * theme on load).
 */
export function registerAppearanceRoutes(
  app: FastifyInstance,
  deps: { viewers: ViewerResolver; appearance: AppearanceService; publicUrl: string | undefined },
): void {
  const { viewers, appearance } = deps;
  const mirror = themeCookieSetter(deps.publicUrl);

  app.get('/api/account/appearance', async (request, reply) => {
    const viewer = await viewers.requireViewer(request);
    const current = await appearance.get(viewer);
    mirror(request, reply, current.theme);
    return { appearance: current };
  });

  app.put('/api/account/appearance', async (request, reply) => {
    const viewer = await viewers.requireViewer(request);
    const input = parseInput(AppearanceSchema, request.body);
    const saved = await appearance.set(viewer, input);
    mirror(request, reply, saved.theme);
    return { appearance: saved };
  });
}
