import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { forgetClearedIdleTimer } from './idle-timer';

const timerOf = (socket: Socket): unknown => {
  const key = Object.getOwnPropertySymbols(socket).find((symbol) => symbol.description === 'timeout');
  return key === undefined ? undefined : (socket as unknown as Record<symbol, unknown>)[key];
};

describe('forgetClearedIdleTimer', () => {
  it("drops the timer node keeps after a socket's timeout was turned off, as ws does on upgrade", () => {
    const socket = new Socket();
    socket.setTimeout(60_000);
    socket.setTimeout(0);
    // What this works around: node still holds the cleared timer.
    expect(timerOf(socket)).toMatchObject({ _destroyed: true });
    forgetClearedIdleTimer(socket);
    expect(timerOf(socket)).toBeNull();
    socket.destroy();
  });

  it('leaves a running timer alone, and a socket that gets a timeout again uses it', async () => {
    const socket = new Socket();
    socket.setTimeout(60_000);
    const running = timerOf(socket);
    forgetClearedIdleTimer(socket);
    expect(timerOf(socket)).toBe(running);

    socket.setTimeout(0);
    forgetClearedIdleTimer(socket);
    const timedOut = new Promise<void>((resolve) => socket.once('timeout', resolve));
    socket.setTimeout(1);
    await timedOut;
    socket.destroy();
  });
});
