import { startChildServer, type ChildServer } from '../../test/support/server-process';

/** A server of the test's own (not Playwright's `webServer`), so the test can stop and start it again. */
export interface OwnServer extends ChildServer {
  port: number;
}

/**
 * Starts `scripts/e2e-server.mjs` (the suite's production server) in a child process on 127.0.0.1 with
 * its data in `tempDir`, which survives the process: a second start on the same dir and port is the same
 * app restarted. `port` 0 picks a free one. The child's stdin is a pipe, so it also ends if the test
 * runner dies. `env` adds to its environment (e.g. a test's OpenID provider).
 */
export async function startOwnServer(
  tempDir: string,
  port = 0,
  env: Record<string, string> = {},
): Promise<OwnServer> {
  const server = await startChildServer({
    command: [process.execPath, '--import', 'tsx', 'scripts/e2e-server.mjs'],
    env: {
      ...process.env,
      E2E_TEMP_DIR: tempDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdin: 'pipe',
    ready: {
      output: (output) => {
        const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
        return url ? { url } : undefined;
      },
    },
  });
  return { ...server, port: Number(new URL(server.url).port) };
}
