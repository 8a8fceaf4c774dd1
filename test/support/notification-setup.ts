import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { CreateProjectInput, NotificationKind } from '../../src/common';
import type { Config } from '../../src/server/config/config';
import type { DatabaseHandle } from '../../src/server/db/database';
import { signUpClient, type SignedInClient } from './clients';
import { setNotificationPreference, type NotificationPreference } from './notification-preferences';
import { SmtpInbox } from './smtp-inbox';
import { openServerDatabase } from './test-database';
import { startTestServer, startTwoInstances, type TestServer, type TwoInstances } from './test-server';

/** Calendar day `offset` days from `day` (YYYY-MM-DD), at `time` UTC, as an ISO string. */
export function dayAt(day: string, offset: number, time: string): string {
  const date = new Date(`${day}T${time}Z`);
  date.setUTCDate(date.getUTCDate() + offset);
  return date.toISOString();
}

/** Two days before `dueDate`, one second before midnight: nothing is due tomorrow yet. */
export const beforeAnythingIsDue = (dueDate: string): string => dayAt(dueDate, -2, '23:59:59');

/** A project due on `dueDate`, created by whoever sends it. */
export const projectDueOn = (
  dueDate: string,
  name: string,
  assignedUserIds: string[],
): CreateProjectInput => ({
  name,
  details: 'Due soon',
  dueDate,
  category: 'development',
  assignedUserIds,
});

export interface NotificationSetupOptions {
  /** The time the servers read from their clock file until `setClock` moves it. */
  clockAt: string;
  /** Config of every instance beyond the clock file (and `smtpUrl` with `emailFromStart`). */
  config?: Partial<Config>;
  /** Points the servers at the inbox from their start; otherwise a test sets `config.smtpUrl` and restarts. */
  emailFromStart?: boolean;
  /** Signed up after an admin (the first signup), in order, each with its notification choices. */
  members: { name: string; preferences?: Partial<Record<NotificationKind, NotificationPreference>> }[];
}

/**
 * What the notification scheduler and email tests share: a clock file the servers read instead of real time
 * (`DOJO_TEST_CLOCK_FILE`), a real SMTP inbox, the server or servers, a second connection to their database,
 * and members with their preferences. `stop` takes it all down, the servers by their own `stop`.
 */
interface NotificationSetup {
  database: DatabaseHandle;
  inbox: SmtpInbox;
  /** The first signup: the install's admin. */
  admin: SignedInClient;
  members: SignedInClient[];
  /** Moves every server's clock; written whole then renamed, so no server reads half a time. */
  setClock(iso: string): Promise<void>;
  stop(): Promise<void>;
}

export type NotificationServerSetup = NotificationSetup & { server: TestServer };
export type NotificationInstancesSetup = NotificationSetup & { instances: TwoInstances };

/** One server (either engine). */
export function startNotificationServer(options: NotificationSetupOptions): Promise<NotificationServerSetup> {
  return startSetup(options, async (config) => {
    const server = await startTestServer({ configOverrides: config });
    return { server, servers: [server], stop: () => server.stop() };
  });
}

/** Two instances on one PostgreSQL database; members sign up on the first and the second in turn. */
function startNotificationInstances(options: NotificationSetupOptions): Promise<NotificationInstancesSetup> {
  return startSetup(options, async (config) => {
    const instances = await startTwoInstances(config);
    return { instances, servers: [instances.first, instances.second], stop: () => instances.stop() };
  });
}

/**
 * The setup `start` makes (startNotificationServer or startNotificationInstances), started before the file's
 * first test and stopped after its last; `memberNames` name its members in order, so that
 * `useNotificationSetup(start, ['creator'])` gives `setup.creator` for `setup.members[0]`. Read it in hooks
 * and tests, once it has started.
 */
function useNotificationSetup<Setup extends NotificationSetup, Name extends string = never>(
  start: () => Promise<Setup>,
  memberNames: readonly Name[] = [],
): Setup & Readonly<Record<Name, SignedInClient>> {
  let setup: Setup | undefined;
  beforeAll(async () => {
    setup = await start();
  });
  afterAll(() => setup?.stop());
  return new Proxy({} as Setup & Record<Name, SignedInClient>, {
    get: (_target, key) => {
      if (!setup) throw new Error(`the notification setup is ready only once the file's beforeAll ran`);
      const member = memberNames.indexOf(key as Name);
      return member >= 0 ? setup.members[member] : Reflect.get(setup, key);
    },
  });
}

/** useNotificationSetup of one server (either engine), started with `options`. */
export function useNotificationServer<Name extends string = never>(
  options: NotificationSetupOptions,
  memberNames: readonly Name[] = [],
): NotificationServerSetup & Readonly<Record<Name, SignedInClient>> {
  return useNotificationSetup(() => startNotificationServer(options), memberNames);
}

/** useNotificationSetup of two instances on one PostgreSQL database, started with `options`. */
export function useNotificationInstances<Name extends string = never>(
  options: NotificationSetupOptions,
  memberNames: readonly Name[] = [],
): NotificationInstancesSetup & Readonly<Record<Name, SignedInClient>> {
  return useNotificationSetup(() => startNotificationInstances(options), memberNames);
}

async function startSetup<Started extends { servers: TestServer[]; stop(): Promise<void> }>(
  options: NotificationSetupOptions,
  start: (config: Partial<Config>) => Promise<Started>,
): Promise<NotificationSetup & Omit<Started, 'servers' | 'stop'>> {
  // Undone last first, also when the setup itself fails half way.
  const undo: (() => Promise<void> | void)[] = [];
  const stop = async () => {
    for (const step of undo.splice(0).reverse()) await step();
  };
  try {
    const clockDir = await mkdtemp(path.join(os.tmpdir(), 'dojo-clock-'));
    undo.push(() => rm(clockDir, { recursive: true, force: true }));
    const clockFile = path.join(clockDir, 'now');
    const setClock = async (iso: string) => {
      await writeFile(`${clockFile}.next`, iso);
      await rename(`${clockFile}.next`, clockFile);
    };
    await setClock(options.clockAt);
    const inbox = await SmtpInbox.start();
    undo.push(() => inbox.stop());
    const {
      servers,
      stop: stopServers,
      ...started
    } = await start({
      ...options.config,
      testClockFile: clockFile,
      ...(options.emailFromStart ? { smtpUrl: inbox.url } : {}),
    });
    undo.push(stopServers);
    const [first] = servers as [TestServer];
    const database = await openServerDatabase(first);
    undo.push(() => database.close());
    const admin = await signUpClient(first.url, 'Admin');
    undo.push(() => admin.client.close());
    const members: SignedInClient[] = [];
    for (const [index, member] of options.members.entries()) {
      const user = await signUpClient(servers[index % servers.length]!.url, member.name);
      undo.push(() => user.client.close());
      members.push(user);
      for (const [kind, preference] of Object.entries(member.preferences ?? {})) {
        await setNotificationPreference(database.db, user.user.uid, kind as NotificationKind, preference);
      }
    }
    return { ...started, database, inbox, admin, members, setClock, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
