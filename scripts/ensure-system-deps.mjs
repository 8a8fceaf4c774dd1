#!/usr/bin/env node
// Checks the system packages the test suite needs before anything slow runs: Debian's Chromium (the
// e2e browser), the PostgreSQL server binaries (the integration-postgres cluster) and strace (the
// durability test watches the server's fsync calls), nginx (the reverse-proxy test) and OpenStack Swift
// with memcached (the real S3 API of the integration-s3 suite). As root on Debian
// it installs what is missing; otherwise it stops at once with the command to run. Never skips silently.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

const CHROMIUM = '/usr/bin/chromium';
const POSTGRES_LIB_DIR = '/usr/lib/postgresql';
const STRACE = '/usr/bin/strace';
const NGINX = '/usr/sbin/nginx';
const SWIFT_PROXY = '/usr/bin/swift-proxy-server';
const MEMCACHED = '/usr/bin/memcached';
const SWIFT_PACKAGES = [
  'swift',
  'swift-proxy',
  'swift-account',
  'swift-container',
  'swift-object',
  'memcached',
];

function findInitdb() {
  if (!existsSync(POSTGRES_LIB_DIR)) return undefined;
  return readdirSync(POSTGRES_LIB_DIR)
    .map((version) => path.join(POSTGRES_LIB_DIR, version, 'bin', 'initdb'))
    .find((file) => existsSync(file));
}

function missingPackages() {
  const missing = [];
  if (!existsSync(CHROMIUM)) missing.push('chromium');
  if (!findInitdb()) missing.push('postgresql');
  if (!existsSync(STRACE)) missing.push('strace');
  if (!existsSync(NGINX)) missing.push('nginx');
  if (!existsSync(SWIFT_PROXY) || !existsSync(MEMCACHED)) missing.push(...SWIFT_PACKAGES);
  return missing;
}

function run(command, args, env = process.env) {
  console.log(`$ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    console.error(
      `ensure-system-deps: '${command} ${args.join(' ')}' exited with ${result.status ?? result.signal}`,
    );
    process.exit(1);
  }
}

let missing = missingPackages();
if (missing.length > 0) {
  const canInstall = existsSync('/etc/debian_version') && process.getuid?.() === 0;
  if (!canInstall) {
    console.error(
      `ensure-system-deps: missing system packages: ${missing.join(', ')} ` +
        `(need ${CHROMIUM}, ${POSTGRES_LIB_DIR}/*/bin/initdb, ${STRACE}, ${NGINX}, ${SWIFT_PROXY} and ${MEMCACHED}).\n` +
        `Install them with:\n  sudo apt-get update && sudo apt-get install -y ${missing.join(' ')}`,
    );
    process.exit(1);
  }
  console.log(`ensure-system-deps: installing ${missing.join(', ')} with apt-get`);
  run('apt-get', ['update']);
  run('apt-get', ['install', '-y', ...missing], {
    ...process.env,
    DEBIAN_FRONTEND: 'noninteractive',
  });
  missing = missingPackages();
  if (missing.length > 0) {
    console.error(`ensure-system-deps: still missing after apt-get install: ${missing.join(', ')}`);
    process.exit(1);
  }
}

console.log(
  `ensure-system-deps: ok (${CHROMIUM}, ${findInitdb()}, ${STRACE}, ${NGINX}, ${SWIFT_PROXY}, ${MEMCACHED})`,
);
