import { PutObjectCommand } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import {
  createTestBucket,
  removeTestBucket,
  s3StorageConfig,
  startSwiftS3,
  swiftS3Client,
} from '../test/support/swift-s3';
import { signUpMany } from './lib/clients';
import { startServer } from './lib/server-process';
import { figure, fmt } from './lib/stats';
import type { Benchmark } from './lib/types';
import { resumableUpload } from './storage';

const SIZE = 100_000_000;
const MB = 1_000_000;

const rate = (bytes: number, started: number): number => bytes / MB / ((performance.now() - started) / 1000);

/**
 * The storage line again with the bytes in S3 (docs/decisions/022-s3-storage.md): the product's resumable
 * upload on STORAGE_DRIVER=s3 against one bare S3 PUT of the same bytes to the same service.
 */
export const storageS3: Benchmark = {
  id: 'storage-s3',
  title: 'Storage on S3: resumable upload of a 100 MB file',
  async run(context) {
    const swift = await startSwiftS3();
    const bucket = await createTestBucket(swift);
    const s3 = s3StorageConfig(swift, bucket);
    const client = swiftS3Client(swift);
    const server = await startServer({
      dataDir: path.join(context.tmpDir, 'data-s3'),
      cpuProfDir: context.cpuProfDir,
      env: {
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: s3.endpoint ?? '',
        S3_BUCKET: s3.bucket,
        S3_REGION: s3.region,
        S3_ACCESS_KEY_ID: s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
        S3_FORCE_PATH_STYLE: 'true',
      },
    });
    try {
      const [session] = await signUpMany(server.url, 1, 'storage-s3');
      if (!session) throw new Error('no session');
      const bytes = randomBytes(context.quick ? SIZE / 10 : SIZE);
      await resumableUpload(
        server.url,
        session,
        `files/${session.uid}/warm-up.bin`,
        bytes.subarray(0, 4 * MB),
      );
      const dojo: number[] = [];
      const bare: number[] = [];
      for (let run = 0; run < context.runs; run += 1) {
        // Alternate which goes first: the storage service's own write-back slows whichever comes next.
        const steps = [
          async () => {
            const started = performance.now();
            await resumableUpload(server.url, session, `files/${session.uid}/s3-${run}.bin`, bytes);
            dojo.push(rate(bytes.length, started));
          },
          async () => {
            const started = performance.now();
            await client.send(
              new PutObjectCommand({
                Bucket: bucket,
                Key: `bare/${run}`,
                Body: bytes,
                ContentLength: bytes.length,
              }),
            );
            bare.push(rate(bytes.length, started));
          },
        ];
        for (const step of run % 2 === 0 ? steps : steps.reverse()) await step();
        context.log(
          `run ${run + 1}: Dojo on S3 ${fmt(dojo[run], 0)} MB/s, bare S3 PUT ${fmt(bare[run], 0)} MB/s`,
        );
      }
      return {
        status: 'ok',
        method: [
          `${fmt(bytes.length / MB, 0)} MB of random bytes as a resumable upload (the storage line's raw protocol ` +
            'client: chunks of 256 KiB doubling to 16 MiB) to a server with `STORAGE_DRIVER=s3`, against OpenStack ' +
            'Swift with `s3api` on loopback (test/support/swift-s3.ts), timed from the start to the finalize answer.',
          'Baseline: one `PutObject` of the same bytes to the same bucket with the AWS SDK. The product sends ' +
            'every chunk as parts of a multipart upload (small first chunks wait as segment objects until there ' +
            'are 5 MiB) and acknowledges it once S3 stored them; finalize completes the multipart upload ' +
            '(docs/decisions/032-upload-throughput.md). The budget is a quarter of the bare PUT.',
        ],
        figures: [
          figure(
            'storageS3.ratio',
            'Dojo on S3 / bare S3 PUT',
            '×',
            dojo.map((value, index) => value / (bare[index] ?? NaN)),
            2,
          ),
          figure('storageS3.mbps', 'Dojo resumable upload on S3', 'MB/s', dojo, 0),
          figure('storageS3.bare', 'bare S3 PUT', 'MB/s', bare, 0),
        ],
      };
    } finally {
      await server.stop();
      client.destroy();
      await removeTestBucket(swift, bucket).catch(() => undefined);
      await swift.stop();
    }
  },
};
