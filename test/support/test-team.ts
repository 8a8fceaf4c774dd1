import { afterAll, beforeAll } from 'vitest';
import type { Config } from '../../src/server/config/config';
import { signUpClient, type SignedInClient } from './clients';
import { SmtpInbox } from './smtp-inbox';
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

/** useTestTeam's server with the SMTP inbox it sends email to. */
export type MailingTeam<Key extends string> = TestTeam<Key> & { readonly inbox: SmtpInbox };

/** Two instances on one PostgreSQL database and the members signed up on them, by the keys the file chose. */
export type TwoInstanceTeam<Key extends string> = { readonly instances: TwoInstances } & {
  readonly [key in Key]: SignedInClient;
};

/**
 * Starts the servers before the file's (or `describe`'s) first test and signs the members up in the order
 * given, each on the URL `urlOf` picks; closes their clients and stops the servers after their last. The
 * answer reads each of the servers' `fields` and each member by its key.
 */
function useMembers<Servers extends { stop(): Promise<void> }, Key extends string>(
  fields: readonly (keyof Servers & string)[],
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
  for (const field of fields) {
    Object.defineProperty(team, field, { get: () => ready(servers, field)[field] });
  }
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
    ['server'],
    async () => {
      const server = await startTestServer(options);
      return { server, stop: () => server.stop() };
    },
    mapValues(displayNames, (displayName) => ({
      displayName,
      urlOf: ({ server }: { server: TestServer }) => server.url,
    })),
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
    ['instances'],
    async () => {
      const instances = await startTwoInstances(configOverrides);
      return { instances, stop: () => instances.stop() };
    },
    mapValues(members, ([displayName, on]) => ({
      displayName,
      urlOf: ({ instances }: { instances: TwoInstances }) => instances[on].url,
    })),
  ) as TwoInstanceTeam<Key>;
}

/**
 * useTestTeam with email: an SMTP inbox started first and the server sending to it (`smtpUrl`); the inbox
 * is stopped after the server. `configOverrides` adds the rest (email needs `publicUrl`).
 */
export function useMailingTeam<Key extends string>(
  displayNames: Record<Key, string>,
  configOverrides: Partial<Config> = {},
): MailingTeam<Key> {
  return useMembers(
    ['server', 'inbox'],
    async () => {
      const inbox = await SmtpInbox.start();
      try {
        const server = await startTestServer({ configOverrides: { smtpUrl: inbox.url, ...configOverrides } });
        return {
          server,
          inbox,
          stop: async () => {
            await server.stop();
            await inbox.stop();
          },
        };
      } catch (error) {
        await inbox.stop();
        throw error;
      }
    },
    mapValues(displayNames, (displayName) => ({
      displayName,
      urlOf: ({ server }: { server: TestServer }) => server.url,
    })),
  ) as MailingTeam<Key>;
}
