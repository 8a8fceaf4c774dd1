import { createApp } from './app';
import { ConfigError, loadConfig } from './config/config';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const app = await createApp(config);
  const url = await app.listen();
  app.server.log.info(`The Dojo is running at ${url} (data in ${config.dataDir})`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.server.log.info(`${signal} received: finishing in-flight requests and shutting down`);
    // A request that never ends must not keep the process alive for ever.
    setTimeout(() => {
      app.server.log.error('shutdown took longer than 20 s: exiting anyway');
      process.exit(1);
    }, 20_000).unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.server.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error('The Dojo could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
