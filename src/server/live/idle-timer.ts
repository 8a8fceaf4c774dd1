import type { Duplex } from 'node:stream';

/**
 * `ws` turns the HTTP server's idle timeout off on an upgraded socket (`setTimeout(0)`), but node keeps the
 * cleared timer and its bound callback on the socket for as long as it lives: ≈ 180 bytes of heap per live
 * socket, ≈ 2 MiB at 10,000 tabs. Dropping node's reference lets them go; a socket without it is what node
 * has before any timeout was set. Found by the symbol's description, so a node that names it otherwise
 * only keeps the bytes.
 */
export function forgetClearedIdleTimer(socket: Duplex): void {
  const timerKey = Object.getOwnPropertySymbols(socket).find((key) => key.description === 'timeout');
  const holder = socket as unknown as Record<symbol, unknown>;
  if (timerKey && (holder[timerKey] as { _destroyed?: boolean } | null)?._destroyed) holder[timerKey] = null;
}
