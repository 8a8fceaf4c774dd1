/**
 * The baseline: a bare `node:http` server in its own process, no framework, no auth, no database.
 * BARE_MODE=bytes answers every request with the bytes of BARE_FILE (the Dojo's own list answer, captured
 * in the same run); BARE_MODE=sink streams every request body into a file under BARE_DIR, as the least
 * any upload server must do (with `?fsync=1`, synced before the answer). Sends its port over IPC.
 */
import { close, createWriteStream, fsync, open, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

const mode = process.env.BARE_MODE ?? 'bytes';
const contentType = process.env.BARE_CONTENT_TYPE ?? 'application/json; charset=utf-8';
let uploads = 0;

const server =
  mode === 'bytes'
    ? (() => {
        const bytes = readFileSync(process.env.BARE_FILE ?? '');
        const headers = { 'content-type': contentType, 'content-length': String(bytes.length) };
        return http.createServer((_request, response) => {
          response.writeHead(200, headers);
          response.end(bytes);
        });
      })()
    : http.createServer((request, response) => {
        uploads += 1;
        const file = createWriteStream(path.join(process.env.BARE_DIR ?? '/tmp', `upload-${uploads}.bin`));
        let size = 0;
        request.on('data', (chunk: Buffer) => {
          size += chunk.length;
        });
        request.pipe(file);
        // `?fsync=1`: make the bytes durable before answering, as a store that must keep them would.
        const durable = (request.url ?? '').includes('fsync=1');
        file.on('finish', () => {
          const answer = () => {
            const body = JSON.stringify({ size });
            response.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
            response.end(body);
          };
          if (!durable) return answer();
          open(file.path, 'r+', (error, fd) => {
            if (error) return answer();
            fsync(fd, () => close(fd, answer));
          });
        });
      });

server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.send?.({ type: 'ready', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
process.on('message', (message: { type: string }) => {
  if (message.type === 'cpu') process.send?.({ type: 'cpu', usage: process.cpuUsage() });
});
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
