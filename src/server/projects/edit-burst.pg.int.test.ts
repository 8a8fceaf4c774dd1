import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpClient, type SignedInClient } from '../../../test/support/clients';
import { createProjects, editEach, expectBurstLimitedTo } from '../../../test/support/edit-burst';
import { openServerDatabase } from '../../../test/support/test-database';
import { startTwoInstances, type TwoInstances } from '../../../test/support/test-server';
import type { DatabaseHandle } from '../db/database';

/** Edits per member per minute, for the whole deployment. */
const LIMIT = 20;
const BURST = 150;

let instances: TwoInstances;
let database: DatabaseHandle;
let editor: SignedInClient;
let watcher: SignedInClient;
let other: SignedInClient;

beforeAll(async () => {
  instances = await startTwoInstances({ writesPerMinute: LIMIT });
  database = await openServerDatabase(instances.first);
  await signUpClient(instances.first.url, 'Admin').then(({ client }) => client.close());
  editor = await signUpClient(instances.first.url, 'Editor');
  watcher = await signUpClient(instances.second.url, 'Watcher');
  other = await signUpClient(instances.second.url, 'Other');
});
afterAll(async () => {
  for (const member of [editor, watcher, other]) member?.client.close();
  await database?.close();
  await instances?.stop();
});

describe('a burst of project edits over two instances', () => {
  it(
    'spends one budget for the member, whichever instance takes each edit',
    { timeout: 120_000 },
    async () => {
      const urls = [instances.first.url, instances.second.url];
      await expectBurstLimitedTo({ urls, editor, watcher, db: database.db }, BURST, LIMIT);
      // Another member keeps a budget of their own on either instance.
      const own = await createProjects(other, 2, [other.user.uid]);
      const otherAnswers = await editEach(urls, other.client.transport.cookieHeader() ?? '', own);
      expect(otherAnswers.map((answer) => answer.status)).toEqual([200, 200]);
    },
  );
});
