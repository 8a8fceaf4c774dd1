import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { changesMessage } from './result-state';
import { textFrame } from './text-frame';

/** `ws` sends a Buffer as a binary message unless told otherwise; the protocol's messages are text. */
export const TEXT_MESSAGE = { binary: false } as const;

/** A message many sockets get, encoded once: its UTF-8 bytes, and the whole WebSocket frame around them. */
interface SharedFrame {
  payload: Buffer;
  whole: Buffer;
}

/**
 * The messages of one diff that every subscriber in step with its group gets: serialized and encoded once
 * per subscription id (dashboards all use the same few ids), so a socket only gets a ready buffer written
 * to it.
 */
export class SharedDiffFrames {
  private readonly frames = new Map<string, SharedFrame>();

  /** `changesJson`: the diff, serialized once. */
  constructor(private readonly changesJson: string) {}

  frameFor(subscriptionId: string): SharedFrame {
    let frame = this.frames.get(subscriptionId);
    if (!frame) {
      const payload = Buffer.from(changesMessage(subscriptionId, this.changesJson));
      frame = { payload, whole: textFrame(payload) };
      this.frames.set(subscriptionId, frame);
    }
    return frame;
  }
}

/**
 * Sends a message many sockets get: its whole frame in one write when the TCP stream under the socket is
 * at hand (`ws` itself writes to it synchronously, no compression, so the order holds), else through `ws`.
 */
export function sendSharedFrame(socket: WebSocket, stream: Duplex | undefined, frame: SharedFrame): void {
  if (stream) stream.write(frame.whole);
  else socket.send(frame.payload, TEXT_MESSAGE);
}
