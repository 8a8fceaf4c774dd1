import { afterAll, beforeAll } from 'vitest';
import type { Config } from '../../src/server/config/config';
import { signUpClient, type SignedInClient } from './clients';
import {
  startTestServer,
  startTwoInstances,
  type StartTestServerOptions,
  type TestServer,
  type TwoInstances,
} from './test-server';

/** A test file's server and the members signed up on it, by the keys the file chose. */
export type TestTeam<Key extends string> = { readonly server: TestServer } & {
  readonly [key in Key]: SignedInClient;
};

/** Two instances on one PostgreSQL database and the members signed up on them, by the keys the file chose. */
export type TwoInstanceTeam<Key extends string> = { readonly instances: TwoInstances } & {
  readonly [key in Key]: SignedInClient;
};

/**
 * Starts `servers` before the file's (or `describe`'s) first test and signs the members up in the order
 * given, each on the URL `urlOf` picks; closes their clients and stops the servers after its last. The
 * answer reads the servers as `servers` and each member by its key.
 */
function useMembers<Servers extends { stop(): Promise<void> }, Key extends string>(
  serversKey: string,
  start: () => Promise<Servers>,
  members: Record<Key, { displayName: string; urlOf: (servers: Servers) => string }>,
): object {
  let servers: Servers | undefined;
  const signedUp = new Map<string, SignedInClient>();
  beforeAll(async () => {
    const started = await start();
    servers = started;
    for (const [key, { displayName, urlOf }] of Object.entries<(typeof members)[Key]>(members)) {
      signedUp.set(key, await signUpClient(urlOf(started), displayName));
    }
  });
  afterAll(async () => {
    for (const member of signedUp.values()) member.client.close();
    await servers?.stop();
  });
  const ready = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`${name} is ready only once the file's beforeAll ran`);
    return value;
  };
  const team = {};
  Object.defineProperty(team, serversKey, { get: () => ready(servers, serversKey) });
  for (const key of Object.keys(members)) {
    Object.defineProperty(team, key, { get: () => ready(signedUp.get(key), key) });
  }
  return team;
}

const mapValues = <Key extends string, From, To>(
  record: Record<Key, From>,
  map: (value: From) => To,
): Record<Key, To> =>
  Object.fromEntries(Object.entries<From>(record).map(([key, value]) => [key, map(value)])) as Record<
    Key,
    To
  >;

/**
 * One server for a test file, with these members signed up in the order given (so the first is the team's
 * admin): started before the file's first test; their clients closed and the server stopped after its last.
 * `useTestTeam({ ada: 'Ada', bob: 'Bob' })` gives `team.server`, `team.ada` and `team.bob`.
 */
export function useTestTeam<Key extends string>(
  displayNames: Record<Key, string>,
  options: StartTestServerOptions = {},
): TestTeam<Key> {
  return useMembers(
    'server',
    () => startTestServer(options),
    mapValues(displayNames, (displayName) => ({ displayName, urlOf: (server: TestServer) => server.url })),
  ) as TestTeam<Key>;
}

/**
 * useTestTeam over two instances on one PostgreSQL database, each member signed up on the instance named
 * with them: `useTwoInstanceTeam({ ada: ['Ada', 'first'], bob: ['Bob', 'second'] })` gives
 * `team.instances`, `team.ada` and `team.bob`.
 */
export function useTwoInstanceTeam<Key extends string>(
  members: Record<Key, [displayName: string, on: 'first' | 'second']>,
  configOverrides: Partial<Config> = {},
): TwoInstanceTeam<Key> {
  return useMembers(
    'instances',
    () => startTwoInstances(configOverrides),
    mapValues(members, ([displayName, on]) => ({
      displayName,
      urlOf: (instances: TwoInstances) => instances[on].url,
    })),
  ) as TwoInstanceTeam<Key>;
}
