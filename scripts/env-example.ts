/**
 * Writes `.env.example` from the config schema (src/server/config/config.ts), or with `--check` fails when the
 * committed file differs from what the schema gives (part of `npm run lint`).
 *
 * Usage: tsx scripts/env-example.ts [--check]
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { renderEnvExample } from '../src/server/config/env-example';

const target = fileURLToPath(new URL('../.env.example', import.meta.url));
const { values } = parseArgs({ options: { check: { type: 'boolean', default: false } } });
const expected = renderEnvExample();

if (values.check) {
  const committed = await readFile(target, 'utf8').catch(() => '');
  if (committed !== expected) {
    console.error(
      'env-example: .env.example does not match src/server/config/config.ts; run `npm run env:example`',
    );
    process.exit(1);
  }
  console.error('env-example: .env.example matches the config schema');
} else {
  await writeFile(target, expected);
  console.error('env-example: wrote .env.example');
}
