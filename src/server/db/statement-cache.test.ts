import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withStatementCache, type CachingSqliteDatabase } from './statement-cache';

interface TestSchema {
  items: { id: number; name: string };
}

describe('withStatementCache', () => {
  let dir: string;
  let sqlite: SqliteDatabase.Database;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'dojo-statements-'));
    sqlite = new SqliteDatabase(path.join(dir, 'test.sqlite'));
    sqlite.exec('create table items (id integer primary key, name text not null)');
    const insert = sqlite.prepare('insert into items (id, name) values (?, ?)');
    for (let id = 1; id <= 5; id += 1) insert.run(id, `item ${id}`);
  });

  afterEach(async () => {
    if (sqlite.open) sqlite.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('prepares each SQL text once and gives right results for every use', () => {
    const database = withStatementCache(sqlite);
    const byId = 'select name from items where id = ?';
    const first = database.prepare(byId);
    expect(first.all([2])).toEqual([{ name: 'item 2' }]);
    const again = database.prepare(byId);
    expect(again).toBe(first);
    expect(again.all([4])).toEqual([{ name: 'item 4' }]);

    const count = database.prepare('select count(*) as n from items');
    expect(count).not.toBe(first);
    expect(count.all([])).toEqual([{ n: 5 }]);
    expect(database.prepare('delete from items where id = ?').run([5]).changes).toBe(1);
    expect(database.prepare('select count(*) as n from items').all([])).toEqual([{ n: 4 }]);
    expect(database.cachedStatements).toBe(3);
  });

  it('keeps at most `capacity` statements, dropping the least recently used', () => {
    const database = withStatementCache(sqlite, 3);
    const query = (id: number) => `select name from items where id = ${id}`;
    const one = database.prepare(query(1));
    database.prepare(query(2));
    database.prepare(query(3));
    expect(database.prepare(query(1))).toBe(one); // 1 is now the most recent
    database.prepare(query(4)); // evicts 2
    expect(database.cachedStatements).toBe(3);
    expect(database.prepare(query(1))).toBe(one);
    for (let id = 1; id <= 50; id += 1) {
      expect(database.prepare(query(id)).all([])).toEqual(id <= 5 ? [{ name: `item ${id}` }] : []);
    }
    expect(database.cachedStatements).toBe(3);
  });

  it('gives a fresh statement while the cached one is still iterating', () => {
    const database = withStatementCache(sqlite);
    const text = 'select id from items order by id';
    const streaming = database.prepare(text);
    const rows = streaming.iterate([]);
    expect(rows.next().value).toEqual({ id: 1 });

    const meanwhile = database.prepare(text);
    expect(meanwhile).not.toBe(streaming);
    expect(meanwhile.all([])).toHaveLength(5);

    expect([...rows]).toEqual([{ id: 2 }, { id: 3 }, { id: 4 }, { id: 5 }]);
    expect(database.prepare(text)).toBe(streaming);
  });

  it('serves Kysely: queries, streams and writes on one cached connection', async () => {
    const database: CachingSqliteDatabase = withStatementCache(sqlite);
    const db = new Kysely<TestSchema>({ dialect: new SqliteDialect({ database }) });
    const nameOf = async (id: number) =>
      (await db.selectFrom('items').select('name').where('id', '=', id).executeTakeFirst())?.name;

    expect(await nameOf(1)).toBe('item 1');
    expect(await nameOf(3)).toBe('item 3');
    const streamed: number[] = [];
    for await (const row of db.selectFrom('items').select('id').orderBy('id').stream()) {
      streamed.push(row.id);
      if (row.id === 3) break; // an abandoned stream must release its statement
    }
    expect(streamed).toEqual([1, 2, 3]);
    const ids = await db.selectFrom('items').select('id').orderBy('id').execute();
    expect(ids.map((row) => row.id)).toEqual([1, 2, 3, 4, 5]);

    await db.transaction().execute(async (trx) => {
      await trx.insertInto('items').values({ id: 6, name: 'item 6' }).execute();
      await trx.updateTable('items').set({ name: 'renamed' }).where('id', '=', 1).execute();
    });
    expect(await nameOf(1)).toBe('renamed');
    expect(await nameOf(6)).toBe('item 6');
    await expect(db.insertInto('items').values({ id: 6, name: 'again' }).execute()).rejects.toMatchObject({
      code: 'SQLITE_CONSTRAINT_PRIMARYKEY',
    });
    expect(await nameOf(6)).toBe('item 6');

    await db.destroy();
    expect(sqlite.open).toBe(false);
  });
});
