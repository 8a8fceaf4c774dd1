import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { textFrame } from './text-frame';

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  if (server) await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** Each length class of the header: 7-bit, 16-bit and 64-bit payload lengths, and their edges. */
const LENGTHS = [0, 1, 125, 126, 127, 65_535, 65_536, 200_000];

const payloadOf = (length: number): string =>
  Array.from({ length }, (_, index) => String.fromCharCode(97 + (index % 26))).join('');

it('writes frames a real WebSocket client reads as the same text messages, in order with ws own sends', async () => {
  const sockets = new WebSocketServer({ noServer: true });
  server = createServer();
  server.on('upgrade', (request, stream, head) => {
    sockets.handleUpgrade(request, stream, head, (webSocket) => {
      for (const length of LENGTHS) {
        stream.write(textFrame(Buffer.from(payloadOf(length))));
        webSocket.send(`after ${length}`);
      }
      stream.write(textFrame(Buffer.from('ünïcödé ✓')));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  const client = new WebSocket(`ws://127.0.0.1:${port}`);
  const received: { text: string; binary: boolean }[] = [];
  const expectedCount = LENGTHS.length * 2 + 1;
  await new Promise<void>((resolve, reject) => {
    client.on('error', reject);
    client.on('close', (code) => reject(new Error(`closed with ${code}`)));
    client.on('message', (data, binary) => {
      received.push({ text: String(data), binary });
      if (received.length === expectedCount) resolve();
    });
  });
  client.terminate();

  const expected = LENGTHS.flatMap((length) => [payloadOf(length), `after ${length}`]);
  expected.push('ünïcödé ✓');
  expect(received.map((message) => message.text)).toEqual(expected);
  expect(received.every((message) => !message.binary)).toBe(true);
});
