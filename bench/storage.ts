import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Project } from '../src/common';
import { attachmentObjectName } from '../src/common/attachments';
import { api, httpRequest, signUpMany, type Session } from './lib/clients';
import { startBareServer, startServer } from './lib/server-process';
import { figure, fmt } from './lib/stats';
import type { Benchmark } from './lib/types';

const SIZE = 100_000_000;
const MB = 1_000_000;
/** The SDK's chunk sizes (docs/storage-protocol.md#62-chunk-sizes): 256 KiB, doubling after each chunk, at most 16 MiB. */
const FIRST_CHUNK = 262_144;
const MAX_CHUNK = 16_777_216;
const BUCKET = 'dojo';

class PendingError extends Error {}

/**
 * One resumable upload exactly as the protocol describes it (docs/storage-protocol.md §4.8): start, then
 * chunks with `X-Goog-Upload-Command: upload` / `upload, finalize` and `X-Goog-Upload-Offset`.
 */
export async function resumableUpload(
  baseUrl: string,
  session: Session,
  name: string,
  bytes: Buffer,
): Promise<void> {
  const auth = { authorization: `Firebase ${session.idToken}` };
  const start = await httpRequest(`${baseUrl}/v0/b/${BUCKET}/o?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: {
      ...auth,
      'x-goog-upload-protocol': 'resumable',
      'x-goog-upload-command': 'start',
      'x-goog-upload-header-content-length': String(bytes.length),
      'x-goog-upload-header-content-type': 'application/octet-stream',
      'content-type': 'application/json; charset=utf-8',
    },
    body: JSON.stringify({ name, contentType: 'application/octet-stream' }),
  });
  const uploadUrl = start.headers['x-goog-upload-url'];
  if (
    start.status !== 200 ||
    typeof uploadUrl !== 'string' ||
    start.headers['x-goog-upload-status'] !== 'active'
  ) {
    throw new PendingError(
      `resumable start answered ${start.status} (${start.body.toString().slice(0, 160)}): ` +
        'the storage service does not take resumable uploads yet',
    );
  }
  let offset = 0;
  let chunk = FIRST_CHUNK;
  while (offset < bytes.length) {
    const length = Math.min(chunk, bytes.length - offset);
    const last = offset + length === bytes.length;
    // A path when the server has no PUBLIC_URL (docs/storage-protocol.md#48a-start).
    const response = await httpRequest(new URL(uploadUrl, baseUrl).href, {
      method: 'POST',
      headers: {
        ...auth,
        'x-goog-upload-command': last ? 'upload, finalize' : 'upload',
        'x-goog-upload-offset': String(offset),
      },
      body: bytes.subarray(offset, offset + length),
    });
    const status = response.headers['x-goog-upload-status'];
    if (response.status !== 200 || status !== (last ? 'final' : 'active')) {
      throw new Error(
        `chunk at ${offset} answered ${response.status} ${String(status)}: ${response.body.toString().slice(0, 200)}`,
      );
    }
    offset += length;
    // The SDK doubles while the doubled size stays under 32 MiB, so 16 MiB is the largest chunk.
    if (chunk * 2 < 2 * MAX_CHUNK) chunk *= 2;
  }
}

/** The part of the SDK's storage client (src/sdk/storage) this benchmark uses. */
interface StorageSdk {
  createStorage(options: { baseUrl: string; bucket: string; getToken: () => string }): unknown;
  ref(storage: unknown, path: string): unknown;
  uploadBytesResumable(
    reference: unknown,
    data: Uint8Array,
    metadata?: { contentType?: string },
  ): PromiseLike<{ state: string }>;
}

/**
 * The SDK's `uploadBytesResumable`, when the storage client exists in this tree (loaded at run time, so
 * the bench also builds without it); otherwise the raw protocol client above stands in for it.
 */
async function loadStorageSdk(): Promise<StorageSdk | undefined> {
  const file = path.resolve('src/sdk/storage/index.ts');
  if (!existsSync(file)) return undefined;
  try {
    const module = (await import(pathToFileURL(file).href)) as Partial<StorageSdk>;
    return typeof module.uploadBytesResumable === 'function' &&
      typeof module.createStorage === 'function' &&
      typeof module.ref === 'function'
      ? (module as StorageSdk)
      : undefined;
  } catch {
    return undefined;
  }
}

async function sdkUpload(sdk: StorageSdk, baseUrl: string, session: Session, name: string, bytes: Buffer) {
  const storageClient = sdk.createStorage({ baseUrl, bucket: BUCKET, getToken: () => session.idToken });
  const task = sdk.uploadBytesResumable(sdk.ref(storageClient, name), bytes, {
    contentType: 'application/octet-stream',
  });
  const snapshot = await task;
  if (snapshot.state !== 'success') throw new Error(`SDK upload ended in state ${snapshot.state}`);
}

const rate = (bytes: number, started: number): number => bytes / MB / ((performance.now() - started) / 1000);

export const storage: Benchmark = {
  id: 'storage',
  title: 'Storage: resumable upload of a 100 MB file',
  async run(context) {
    const dataDir = path.join(context.tmpDir, 'data');
    const server = await startServer({
      dataDir,
      cpuProfDir: context.cpuProfDir,
      // Every run keeps its uploads (files and attachments): a quota far above what the runs store, and a
      // per-file attachment limit above the 100 MB file.
      env: { STORAGE_QUOTA_BYTES: String(1_000 * SIZE), ATTACHMENT_MAX_BYTES: String(2 * SIZE) },
    });
    const sinkDir = path.join(context.tmpDir, 'bare');
    await mkdir(sinkDir, { recursive: true });
    const bare = await startBareServer({ BARE_MODE: 'sink', BARE_DIR: sinkDir });
    const sdk = await loadStorageSdk();
    try {
      const [session] = await signUpMany(server.url, 1, 'storage');
      if (!session) throw new Error('no session');
      const bytes = randomBytes(context.quick ? SIZE / 10 : SIZE);
      const viaSdk: number[] = [];
      const viaProtocol: number[] = [];
      const viaAttachment: number[] = [];
      const baseline: number[] = [];
      const durable: number[] = [];
      try {
        await resumableUpload(
          server.url,
          session,
          `files/${session.uid}/warm-up.bin`,
          bytes.subarray(0, 4 * MB),
        );
      } catch (error) {
        if (error instanceof PendingError) {
          return {
            status: 'pending',
            error: error.message,
            method: [
              'Written against the protocol (docs/storage-protocol.md#48-resumable-upload, docs/storage-protocol.md#62-chunk-sizes): start, then chunks of 256 KiB ' +
                'doubling to 16 MiB as the SDK sends them, `Authorization: Firebase <id token>`, compared with ' +
                'one streaming POST of the same bytes to a bare `node:http` sink that writes them to a file. ' +
                'It runs as soon as the server answers the resumable start.',
              `\`src/sdk/storage\` upload client present: ${sdk ? 'yes' : 'not yet'}.`,
            ],
            figures: [],
          };
        }
        throw error;
      }
      const { project } = await api<{ project: Project }>(server.url, session, 'POST', '/api/projects', {
        name: 'Storage bench',
        details: 'Holds the 100 MB attachments.',
        dueDate: '2030-01-01',
        category: 'design',
        assignedUserIds: [session.uid],
      });
      // The attachment case as the web client does it (docs/decisions/073-attachments.md): the bytes into the
      // project's attachment area through the same upload client, then the registration, which sniffs.
      const attachmentUpload = async (run: number) => {
        const objectName = attachmentObjectName(project.id, session.uid, `bench-${run}`, 'bench.bin');
        await (sdk
          ? sdkUpload(sdk, server.url, session, objectName, bytes)
          : resumableUpload(server.url, session, objectName, bytes));
        await api(
          server.url,
          session,
          'POST',
          `/api/projects/${project.id}/attachments`,
          { objectName },
          [201],
        );
      };
      const bareUpload = async (query: string) => {
        const response = await httpRequest(`${bare.url}/upload${query}`, { method: 'POST', body: bytes });
        if (response.status !== 200) throw new Error(`bare upload → ${response.status}`);
      };
      const uploads: { kind: string; results: number[]; upload: (run: number) => Promise<void> }[] = [
        ...(sdk
          ? [
              {
                kind: 'SDK',
                results: viaSdk,
                upload: (run: number) =>
                  sdkUpload(sdk, server.url, session, `files/${session.uid}/sdk-${run}.bin`, bytes),
              },
            ]
          : []),
        {
          kind: 'protocol',
          results: viaProtocol,
          upload: (run) => resumableUpload(server.url, session, `files/${session.uid}/raw-${run}.bin`, bytes),
        },
        { kind: 'attachment', results: viaAttachment, upload: attachmentUpload },
        { kind: 'bare', results: baseline, upload: () => bareUpload('') },
        { kind: 'bare+fsync', results: durable, upload: () => bareUpload('?fsync=1') },
      ];
      // Uploads swing with page-cache write-back more than any other figure: take more runs (≈ 3 s each).
      const runs = context.quick ? context.runs : Math.max(context.runs, 5);
      for (let run = 0; run < runs; run += 1) {
        // Rotate the order run by run: page-cache write-back of one upload slows whichever comes next.
        for (let step = 0; step < uploads.length; step += 1) {
          const item = uploads[(step + run) % uploads.length];
          if (!item) continue;
          const started = performance.now();
          await item.upload(run);
          item.results.push(rate(bytes.length, started));
        }
        context.log(
          `run ${run + 1}: ` +
            uploads.map((item) => `${item.kind} ${fmt(item.results[run], 0)} MB/s`).join(', '),
        );
      }
      const dojo = sdk ? viaSdk : viaProtocol;
      return {
        status: 'ok',
        method: [
          `${fmt(bytes.length / MB, 0)} MB of random bytes as a resumable upload to \`files/{uid}/\`, ` +
            `\`Authorization: Firebase <id token>\`, timed from the start request to the finalize answer; ` +
            (sdk
              ? 'the headline figure uses the SDK’s `uploadBytesResumable` (src/sdk/storage, Node fetch). '
              : 'the SDK’s storage client is not in this tree, so the headline figure uses the raw client. ') +
            'The raw protocol client (bench/storage.ts) sends the same requests as the SDK (docs/storage-protocol.md#48-resumable-upload' +
            ', chunks of 256 KiB doubling to 16 MiB) over a keep-alive `node:http` agent.',
          'Baseline (the budget’s “bare loopback upload”): the same bytes in one streaming POST over loopback ' +
            'to a bare `node:http` server (own process) that writes them to a file, not synced. For context, ' +
            'the same with one fsync before the answer (the Dojo syncs every chunk, since a resumable session ' +
            'must survive a restart). The order of the uploads rotates from run to run.',
          'Attachment: the same bytes into a project’s attachment area (`attachments/{projectId}/{uid}/…`, ' +
            `the ${sdk ? 'SDK’s `uploadBytesResumable`' : 'raw protocol client'}), timed from the start request to ` +
            'the answer of the registration (`POST /api/projects/:id/attachments`, which reads and sniffs the ' +
            'stored head); the server runs with a quota above what the runs store.',
        ],
        figures: [
          figure(
            'storage.ratio',
            'Dojo / bare loopback',
            '×',
            dojo.map((value, index) => value / (baseline[index] ?? NaN)),
            2,
          ),
          figure(
            'storage.mbps',
            `Dojo resumable upload (${sdk ? 'SDK' : 'raw protocol client'})`,
            'MB/s',
            dojo,
            0,
          ),
          ...(sdk
            ? [
                figure(
                  'storage.protocol',
                  'Dojo resumable upload (raw protocol client)',
                  'MB/s',
                  viaProtocol,
                  0,
                ),
              ]
            : []),
          figure(
            'storage.attachmentRatio',
            'Attachment upload and registration / bare loopback',
            '×',
            viaAttachment.map((value, index) => value / (baseline[index] ?? NaN)),
            2,
          ),
          figure('storage.attachmentMbps', 'Attachment upload and registration', 'MB/s', viaAttachment, 0),
          figure('storage.bare', 'bare loopback upload', 'MB/s', baseline, 0),
          figure('storage.bareDurable', 'bare loopback upload + fsync', 'MB/s', durable, 0),
          figure(
            'storage.ratioDurable',
            'Dojo / bare loopback + fsync',
            '×',
            dojo.map((value, index) => value / (durable[index] ?? NaN)),
            2,
          ),
        ],
      };
    } finally {
      await bare.stop();
      await server.stop();
    }
  },
};
