import { afterAll, beforeAll } from 'vitest';
import { signUpClient, type SignedInClient } from './clients';
import { startTestServer, type StartTestServerOptions, type TestServer } from './test-server';

/** A test file's server and the members signed up on it, by the keys the file chose. */
export type TestTeam<Key extends string> = { readonly server: TestServer } & {
  readonly [key in Key]: SignedInClient;
};

/**
 * One server for a test file, with these members signed up in the order given (so the first is the team's
 * admin): started before the file's first test; their clients closed and the server stopped after its last.
 * `useTestTeam({ ada: 'Ada', bob: 'Bob' })` gives `team.server`, `team.ada` and `team.bob`.
 */
export function useTestTeam<Key extends string>(
  displayNames: Record<Key, string>,
  options: StartTestServerOptions = {},
): TestTeam<Key> {
  let server: TestServer | undefined;
  const members = new Map<string, SignedInClient>();
  beforeAll(async () => {
    server = await startTestServer(options);
    for (const [key, displayName] of Object.entries<string>(displayNames)) {
      members.set(key, await signUpClient(server.url, displayName));
    }
  });
  afterAll(async () => {
    for (const member of members.values()) member.client.close();
    await server?.stop();
  });
  const ready = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`${name} is ready only once the file's beforeAll ran`);
    return value;
  };
  const team = {} as TestTeam<Key>;
  Object.defineProperty(team, 'server', { get: () => ready(server, 'server') });
  for (const key of Object.keys(displayNames)) {
    Object.defineProperty(team, key, { get: () => ready(members.get(key), key) });
  }
  return team;
}
