import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createProjectAs,
  newClient,
  type SignedInClient,
  signUpClient,
  tomorrow,
} from '../../../test/support/clients';
import { pollUntil } from '../../../test/support/poll';
import { startPostgresCluster, type PostgresCluster } from '../../../test/support/postgres-cluster';
import { startTestServer, type TestServer } from '../../../test/support/test-server';

/**
 * A change must reach every instance even if this one dies right after the commit: its NOTIFY is sent
 * inside the transaction that makes it, so PostgreSQL commits both at once
 * (docs/decisions/033-list-json-and-one-sync-per-write.md, fifth addendum). PostgreSQL's own statement log
 * shows which transaction each statement ran in: a cluster of this file's own logs every statement.
 */
let cluster: PostgresCluster;
let server: TestServer;
let clockDir: string;
/** Reminders are due for projects due on this day: the server's clock stands at noon the day before. */
const dueDate = tomorrow();
/** The first to sign up owns the team: its admin. */
let owner: SignedInClient;
const clients: SignedInClient[] = [];

beforeAll(async () => {
  cluster = await startPostgresCluster();
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  try {
    await admin.query('create database dojo_notify_at_commit');
    await admin.query("alter database dojo_notify_at_commit set log_statement = 'all'");
  } finally {
    await admin.end();
  }
  clockDir = await mkdtemp(path.join(os.tmpdir(), 'dojo-clock-'));
  const testClockFile = path.join(clockDir, 'now');
  await writeFile(testClockFile, new Date(Date.parse(`${dueDate}T12:00:00Z`) - 86_400_000).toISOString());
  server = await startTestServer({
    databaseUrl: cluster.url.replace(/\/postgres$/, '/dojo_notify_at_commit'),
    configOverrides: { testClockFile, notificationTimeZone: 'UTC', dueReminderIntervalMs: 50 },
  });
  owner = await signUpClient(server.url, 'Owner');
  clients.push(owner);
}, 60_000);

afterAll(async () => {
  for (const signedIn of clients) signedIn.client.close();
  await server?.stop();
  await cluster?.stop();
  await rm(clockDir, { recursive: true, force: true });
});

interface LoggedStatement {
  pid: string;
  text: string;
}

/** The statements PostgreSQL logged after `from` bytes of its log, each with its backend and parameters. */
async function loggedSince(from: number): Promise<LoggedStatement[]> {
  const log = (await readFile(path.join(cluster.dir, 'postgres.log'))).subarray(from).toString('utf8');
  const statements: LoggedStatement[] = [];
  const lastOf = new Map<string, LoggedStatement>();
  for (const line of log.split('\n')) {
    const statement = /\[(\d+)\] LOG: {2}(?:statement|execute [^:]*): (.*)$/.exec(line);
    if (statement) {
      const logged = { pid: statement[1] ?? '', text: statement[2] ?? '' };
      statements.push(logged);
      lastOf.set(logged.pid, logged);
    }
    // A statement's parameters follow it on a line of their own, from the same backend.
    const parameters = /\[(\d+)\] DETAIL: {2}parameters: (.*)$/i.exec(line);
    const last = parameters && lastOf.get(parameters[1] ?? '');
    if (last) last.text += ` ${parameters[2] ?? ''}`;
  }
  return statements;
}

const logSize = async () => (await readFile(path.join(cluster.dir, 'postgres.log'))).length;

/** Every transaction the log shows whole, as its statements from `begin` to `commit`. */
function transactions(statements: LoggedStatement[]): string[][] {
  const open = new Map<string, string[]>();
  const whole: string[][] = [];
  for (const { pid, text } of statements) {
    if (/^begin/i.test(text)) open.set(pid, []);
    const current = open.get(pid);
    if (!current) continue;
    current.push(text);
    if (/^commit/i.test(text)) {
      whole.push(current);
      open.delete(pid);
    }
  }
  return whole;
}

/** The one transaction in which `statement` ran. */
function transactionOf(statements: LoggedStatement[], statement: RegExp): string[] {
  const found = transactions(statements).filter((texts) => texts.some((text) => statement.test(text)));
  expect(found, `${statement} ran in one transaction`).toHaveLength(1);
  return found[0]!;
}

const deletesSessions = /delete from "sessions"/i;
const notifiesEndedSessions = /pg_notify.*"collection":"sessions"/;

describe('changes published at their commit', () => {
  it('sends the ended sessions’ NOTIFY inside the transaction that deletes them', async () => {
    const user = await signUpClient(server.url, 'Roamer');
    const phone = newClient(server.url);
    await phone.auth.logIn({ email: user.email, password: user.password });
    clients.push(user, { ...user, client: phone });

    const from = await logSize();
    await user.client.account.signOutOtherSessions();
    // The NOTIFY's payload names the ended session; nothing of it may wait until after the commit.
    const transaction = transactionOf(await loggedSince(from), deletesSessions);
    expect(transaction.some((text) => notifiesEndedSessions.test(text))).toBe(true);
  });

  it('does the same when an admin deactivates a member', async () => {
    const member = await signUpClient(server.url, 'Member');
    clients.push(member);
    const from = await logSize();
    await owner.client.admin.deactivate(member.user.uid);
    const transaction = transactionOf(await loggedSince(from), deletesSessions);
    expect(transaction.some((text) => notifiesEndedSessions.test(text))).toBe(true);
  });

  it('sends the NOTIFY of due reminders inside the transaction that creates them', async () => {
    const from = await logSize();
    await createProjectAs(owner, { name: 'Due tomorrow', details: 'Its reminder is due now.', dueDate });
    const createsReminders = /insert into "notifications".*'due_tomorrow'/is;
    const remindersNotified = /pg_notify.*"collection":"notifications"/;
    // The scheduler ticks every 50 ms, each tick one transaction: wait for the one that created it.
    await pollUntil(
      async () =>
        transactions(await loggedSince(from)).some(
          (texts) =>
            texts.some((text) => createsReminders.test(text)) &&
            texts.some((text) => remindersNotified.test(text)),
        ),
      20_000,
      () => 'no transaction of the scheduler created the reminder and sent its NOTIFY',
    );
  });
});
