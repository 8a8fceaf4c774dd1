import { sql } from 'kysely';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackupInstall, type BackupInstall } from '../../../test/support/backup-install';
import { pollUntil, WAIT_MS } from '../../../test/support/poll';
import { LocalChangeBus, PostgresChangeBus, type Change, type ChangeBus } from './change-bus';
import { openDatabase, type DatabaseHandle } from './database';
import { notifyChannel } from './database-repository';
import { UnitOfWork, Write, type Notifier } from './unit-of-work';

/**
 * The unit of work on the engine of the run (SQLite, or PostgreSQL with its NOTIFY): what a write declares
 * goes out once, after its commit, and nothing of a write that rolled back.
 */
let install: BackupInstall;
let database: DatabaseHandle;
let bus: ChangeBus;
/** Every change the bus delivered, in order. */
const heard: Change[] = [];

beforeAll(async () => {
  install = await createBackupInstall();
  database = await openDatabase({ dataDir: install.dataDir, databaseUrl: install.databaseUrl });
  const url = database.postgresUrl;
  bus = url
    ? await PostgresChangeBus.start(url, (channel, payload, within) =>
        notifyChannel(within ?? database.db, channel, payload),
      )
    : new LocalChangeBus();
  bus.subscribe((changes) => {
    if (changes !== 'resync') heard.push(...changes);
  });
});

afterAll(async () => {
  await bus?.close();
  await database?.close();
  await install?.remove();
});

let counter = 0;
const change = (): Change => ({ collection: 'projects', id: `p${(counter += 1)}` });

const stored = async (key: string): Promise<string | undefined> =>
  (await database.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst())?.value;

const heardOf = (id: string) => heard.filter((entry) => entry.id === id);

/** A later write's change arrives after any change published before it: waiting for it settles those. */
async function settle(): Promise<void> {
  const marker = change();
  await new UnitOfWork({ db: database.db, changes: bus }).run(async (_trx, write) => {
    write.changed(marker);
  });
  await pollUntil(
    () => heardOf(marker.id).length === 1,
    WAIT_MS,
    () => `the marker ${marker.id} never arrived`,
  );
}

/** A notifier that writes nothing: it answers what it is told to and records when it is handed a job. */
function fakeNotifier(answer: { changes: Change[]; queued: boolean }, events: string[]) {
  const notifier: Notifier<string, string> = {
    writeWithin: async (_trx, drafts) => {
      events.push(`notified ${drafts.join(',')}`);
      return answer;
    },
    rowsForStatement: () => null,
    queued: () => events.push('job handed on'),
  };
  return notifier;
}

describe('a unit of work', () => {
  it('publishes a declared change exactly once, after the commit, and forgets right after it', async () => {
    const writes = new UnitOfWork({ db: database.db, changes: bus });
    const declared = change();
    const events: string[] = [];
    await writes.run(async (trx, write) => {
      await trx.insertInto('settings').values({ key: declared.id, value: 'written' }).execute();
      write
        .changed(declared)
        .forgetAfterCommit(() => events.push(`forgot, heard ${heardOf(declared.id).length}`));
      events.push('wrote');
    });
    // Forgotten once, before the write answered. In process (SQLite) the change goes out after that; on
    // PostgreSQL the NOTIFY leaves with the commit itself, so this instance may hear it first (every cache
    // also forgets on the bus, so the order is not what keeps a read fresh).
    if (database.postgresUrl)
      expect(events).toMatchObject(['wrote', expect.stringMatching(/^forgot, heard [01]$/)]);
    else expect(events).toEqual(['wrote', 'forgot, heard 0']);
    await pollUntil(
      () => heardOf(declared.id).length > 0,
      WAIT_MS,
      () => `${declared.id} never arrived`,
    );
    expect(await stored(declared.id)).toBe('written');
    await settle();
    expect(heardOf(declared.id)).toHaveLength(1);
  });

  it('publishes and forgets nothing when the transaction rolls back', async () => {
    const writes = new UnitOfWork({ db: database.db, changes: bus });
    const declared = change();
    const events: string[] = [];
    await expect(
      writes.run(async (trx, write) => {
        await trx.insertInto('settings').values({ key: declared.id, value: 'written' }).execute();
        write.changed(declared).forgetAfterCommit(() => events.push('forgot'));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    await settle();
    expect(heardOf(declared.id)).toEqual([]);
    expect(events).toEqual([]);
    expect(await stored(declared.id)).toBeUndefined();
  });

  it('writes declared notifications inside, publishes their changes with its own, and hands a queued job on after', async () => {
    const events: string[] = [];
    const bell = change();
    const writes = new UnitOfWork({
      db: database.db,
      changes: bus,
      notifier: fakeNotifier({ changes: [bell], queued: true }, events),
    });
    const declared = change();
    await writes.run(async (trx, write) => {
      await trx.insertInto('settings').values({ key: declared.id, value: 'written' }).execute();
      write.changed(declared).notify('first', 'second');
      write.forgetAfterCommit(() => events.push('forgot'));
    });
    expect(events).toEqual(['notified first,second', 'forgot', 'job handed on']);
    await settle();
    expect(heard.filter((entry) => entry.id === declared.id || entry.id === bell.id)).toEqual([
      declared,
      bell,
    ]);
  });

  it('hands no job on and tells nobody when the transaction rolls back', async () => {
    const events: string[] = [];
    const writes = new UnitOfWork({
      db: database.db,
      changes: bus,
      notifier: fakeNotifier({ changes: [], queued: true }, events),
    });
    await expect(
      writes.run(async (_trx, write) => {
        write.notify('someone');
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    await delay(50);
    expect(events).toEqual([]);
  });

  it('carries out a declared write only when it wrote, as one statement where the bus can send its NOTIFY', async () => {
    const events: string[] = [];
    const writes = new UnitOfWork({ db: database.db, changes: bus });
    const ways: string[] = [];
    const declaredWrite = (key: string, wrote: boolean) => ({
      inTransaction: async () => {
        ways.push('transaction');
        return wrote ? key : null;
      },
      asOneStatement: async (
        db: typeof database.db,
        parts: { notify: { channel: string; head: string } },
      ) => {
        ways.push('statement');
        if (!wrote) return null;
        await sql`select pg_notify(${parts.notify.channel}, ${parts.notify.head}::text || ']')`.execute(db);
        return key;
      },
    });
    const skipped = change();
    expect(
      await writes.runDeclared(
        new Write().changed(skipped).forgetAfterCommit(() => events.push('forgot skipped')),
        declaredWrite(skipped.id, false),
      ),
    ).toBeNull();
    const declared = change();
    expect(
      await writes.runDeclared(
        new Write().changed(declared).forgetAfterCommit(() => events.push('forgot written')),
        declaredWrite(declared.id, true),
      ),
    ).toBe(declared.id);
    await settle();
    const way = database.dialect === 'postgres' ? 'statement' : 'transaction';
    expect(ways).toEqual([way, way]);
    expect(events).toEqual(['forgot written']);
    expect(heardOf(skipped.id)).toEqual([]);
    expect(heardOf(declared.id)).toEqual([declared]);
  });
});
