import type { TestProject } from 'vitest/node';
import { startSwiftS3, type SwiftS3Endpoint } from './swift-s3';

/**
 * globalSetup of the `integration-s3` project: one Swift (real S3 API) for the whole run. Each test
 * server makes its own bucket on it (test-server.ts), so test files stay isolated.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const swift = await startSwiftS3();
  project.provide('swiftS3', { endpoint: swift.endpoint });
  return () => swift.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's Swift S3 endpoint; only in the integration-s3 project. */
    swiftS3: SwiftS3Endpoint;
  }
}
