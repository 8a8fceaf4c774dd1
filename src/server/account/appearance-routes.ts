import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { THEME_COOKIE, type Appearance } from '../../common/appearance';
import { AppearanceSchema } from '../../common/appearance-schemas';
import { parseInput } from '../core/validate';
import type { ViewerResolver } from '../http/viewer-resolver';
import type { AppearanceService } from './appearance-service';

/** A year: the cookie only mirrors the account's choice, which the app re-reads at every sign-in. */
const THEME_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/**
 * The member's theme under /api/account/appearance. Both answers mirror it into the `dojo_theme` cookie,
 * from which the server sets `data-theme` on the pages it sends (no flash of the other theme on load).
 */
export function registerAppearanceRoutes(
  app: FastifyInstance,
  deps: { viewers: ViewerResolver; appearance: AppearanceService; publicUrl: string | undefined },
): void {
  const { viewers, appearance } = deps;
  const httpsOnly = deps.publicUrl?.startsWith('https://') ?? false;

  const mirror = (request: FastifyRequest, reply: FastifyReply, chosen: Appearance) => {
    if (chosen.theme === 'system') {
      reply.clearCookie(THEME_COOKIE, { path: '/' });
      return;
    }
    reply.setCookie(THEME_COOKIE, chosen.theme, {
      path: '/',
      sameSite: 'lax',
      secure: httpsOnly || request.protocol === 'https',
      maxAge: THEME_COOKIE_MAX_AGE_SECONDS,
    });
  };

  app.get('/api/account/appearance', async (request, reply) => {
    const viewer = await viewers.requireViewer(request);
    const current = await appearance.get(viewer);
    mirror(request, reply, current);
    return { appearance: current };
  });

  app.put('/api/account/appearance', async (request, reply) => {
    const viewer = await viewers.requireViewer(request);
    const input = parseInput(AppearanceSchema, request.body);
    const saved = await appearance.set(viewer, input);
    mirror(request, reply, saved);
    return { appearance: saved };
  });
}
