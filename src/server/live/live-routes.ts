import type { FastifyInstance } from 'fastify';
import { LIVE_PATH } from '../../common';
import type { ViewerResolver } from '../auth/viewer';
import type { LiveHub } from './live-hub';

/** One WebSocket per tab; the upgrade is refused with 401 unless the request carries a live session. */
export function registerLiveRoutes(
  app: FastifyInstance,
  deps: { hub: LiveHub; viewers: ViewerResolver },
): void {
  app.get(
    LIVE_PATH,
    {
      websocket: true,
      preValidation: async (request) => {
        await deps.viewers.requireViewer(request);
      },
    },
    async (socket, request) => {
      const viewer = await deps.viewers.viewerOf(request);
      if (!viewer) {
        socket.close(4401, 'unauthenticated');
        return;
      }
      deps.hub.attach(socket, viewer);
    },
  );
}
