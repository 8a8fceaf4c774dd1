import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { WebSocket } from 'ws';
import { randomBytes } from 'node:crypto';
import { COMMENT_MAX_LENGTH } from '../../src/common';
import { pngChunk, rgbPng } from './png';

/** A valid 1×1 PNG; `padTo` appends a private ancillary chunk to reach at least that many bytes. */
export function makePng(padTo = 0): Buffer {
  const pixel = Buffer.from([0, 0x6b, 0x4f, 0xd8]);
  const base = rgbPng(1, 1, pixel);
  if (padTo <= base.length) return base;
  return rgbPng(1, 1, pixel, [pngChunk('prVt', randomBytes(Math.max(0, padTo - base.length - 12)))]);
}

export const SVG_IMAGE = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
);

let counter = 0;
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}-${randomBytes(3).toString('hex')}@example.com`;
}

export interface SignupRequest {
  email?: string;
  password?: string;
  displayName?: string;
  thumbnail?: { bytes: Buffer; name: string; type?: string } | null;
}

/** Raw multipart signup, as any HTTP client would send it. */
export async function postSignup(
  baseUrl: string,
  input: SignupRequest = {},
  headers: Record<string, string> = {},
) {
  const form = new FormData();
  form.set('email', input.email ?? uniqueEmail());
  form.set('password', input.password ?? 'correct horse battery');
  // Unique by default: no two accounts may share a display name (docs/decisions/046-members-who-leave.md).
  form.set('displayName', input.displayName ?? `mario ${randomBytes(3).toString('hex')}`);
  const thumbnail =
    input.thumbnail === undefined ? { bytes: makePng(), name: 'avatar.png' } : input.thumbnail;
  if (thumbnail)
    form.set(
      'thumbnail',
      new Blob([new Uint8Array(thumbnail.bytes)], { type: thumbnail.type ?? 'image/png' }),
      thumbnail.name,
    );
  return fetch(`${baseUrl}/api/auth/signup`, { method: 'POST', body: form, headers });
}

export function sessionCookieOf(response: Response): string {
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('dojo_session='));
  if (!cookie) throw new Error('no session cookie in response');
  return cookie.split(';')[0] ?? '';
}

export async function postJson(
  baseUrl: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** A comment of the longest length allowed, starting with `index` so each one differs. */
export const largeComment = (index: number): string => `${index} `.padEnd(COMMENT_MAX_LENGTH, 'x');

/**
 * `count` large comments (largeComment 0, 1, ...) on the project, posted all at once as the member whose
 * session `cookie` is: a long, heavy thread, in no particular order.
 */
export async function postLargeComments(
  baseUrl: string,
  projectId: string,
  count: number,
  cookie: string,
): Promise<void> {
  await Promise.all(
    Array.from({ length: count }, (_, index) =>
      postJson(baseUrl, `/api/projects/${projectId}/comments`, { content: largeComment(index) }, { cookie }),
    ),
  );
}

/** A GET on a fresh connection (no keep-alive pool), for checks right after a server restart. */
export function getOnFreshConnection(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers, agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
  });
}

/** Opens the live socket; resolves with the HTTP status of a refused upgrade, or 101 when accepted. */
export function tryLiveSocket(baseUrl: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/live`, { headers });
    socket.on('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.on('open', () => {
      resolve(101);
      socket.close();
    });
    socket.on('error', (error) => reject(error));
  });
}

/** The paths of every blob file a server with this data dir has stored. */
export function storedBlobFiles(dataDir: string): string[] {
  const root = path.join(dataDir, 'storage', 'blobs');
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}
