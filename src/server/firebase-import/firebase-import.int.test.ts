import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newClient, signUpClient, type SignedInClient } from '../../../test/support/clients';
import { makePng } from '../../../test/support/fixtures';
import {
  createTestDatabaseUrl,
  dropTestDatabase,
  startTestServer,
  testDatabaseEngine,
  type TestServer,
} from '../../../test/support/test-server';
import { firebaseScrypt } from '../auth/passwords';
import { openDatabase } from '../db/database';

/**
 * `npm run import:firebase` as an operator runs it (the CLI in a process of its own, the server stopped),
 * on fixtures in the documented formats: the users export of `firebase auth:export --format=json` (with the
 * published example account of github.com/firebase/scrypt, and one hashed here with the same project
 * parameters), the `users` and `projects` collections as docs/firebase-import.md's script writes them, and
 * pictures in a "Firebase Storage bucket" that is a second Dojo server speaking the storage protocol.
 */

/** The published example's project parameters and account (firebase/scrypt README, 'Password Hashing'). */
const HASH_KEY = 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==';
const SALT_SEPARATOR = 'Bw==';
const ROUNDS = 8;
const MEM_COST = 14;
const PUBLISHED_USER = {
  localId: 'kYi4EvWQlQTKSfnJ3dRSP6IH3ed2',
  email: 'user1@test.com',
  password: 'user1password',
  passwordHash: 'lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==',
  salt: '42xEC+ixf3L2lw==',
};
const ANA = {
  localId: 'AnaFirebaseUid000000000000a1',
  email: 'ana@firebase.example',
  password: 'ana old password',
};
const SSO_ONLY = { localId: 'GoogleOnlyUid000000000000b2', email: 'gus@firebase.example' };
const TAKEN = { localId: 'TakenEmailUid00000000000c3' };
const DISABLED = { localId: 'DisabledUid0000000000000g7', email: 'dora@firebase.example' };
const PROJECT_ID = 'fsProjectDocId000001';
const TAKEN_PROJECT_ID = 'fsProjectDocId000002';

const hashArgs = [
  '--hash-key',
  HASH_KEY,
  '--salt-separator',
  SALT_SEPARATOR,
  '--rounds',
  `${ROUNDS}`,
  '--mem-cost',
  `${MEM_COST}`,
];

let bucket: TestServer;
let target: TestServer;
let dataDir: string;
let databaseUrl: string | undefined;
let fixtures: string;
let existing: SignedInClient;
let pictures: { user1: { url: string; bytes: Buffer }; ana: { url: string; bytes: Buffer } };
let firstRun: CliRun;

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The CLI in a process of its own, on the target's DATA_DIR / DATABASE_URL; resolves when it exits. */
function runImport(args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/import-firebase.ts', ...args],
      {
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: process.env.HOME ?? '/tmp',
          DATA_DIR: dataDir,
          ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Does `work` (importer runs) with the target stopped, then starts it again on the same data. */
async function whileStopped<T>(work: () => Promise<T>): Promise<T> {
  await target.stop();
  try {
    return await work();
  } finally {
    target = await startTestServer({ dataDir, ...(databaseUrl ? { databaseUrl } : {}) });
  }
}

const importWhileStopped = (args: string[]): Promise<CliRun> => whileStopped(() => runImport(args));

async function withDatabase<T>(
  read: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<T>,
): Promise<T> {
  const handle = await openDatabase({ dataDir, databaseUrl });
  try {
    return await read(handle.db);
  } finally {
    await handle.close();
  }
}

/** Rows of every table an import writes. */
const rowCounts = () =>
  withDatabase(async (db) => {
    const count = async (
      table: 'users' | 'projects' | 'comments' | 'project_assignees' | 'storage_objects',
    ) =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<string | number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      users: await count('users'),
      projects: await count('projects'),
      comments: await count('comments'),
      assignees: await count('project_assignees'),
      objects: await count('storage_objects'),
    };
  });

const storedHashOf = (id: string) =>
  withDatabase(
    async (db) =>
      (await db.selectFrom('users').select('password_hash').where('id', '=', id).executeTakeFirstOrThrow())
        .password_hash,
  );

/** A picture uploaded to the bucket server as a member's thumbnail: its absolute download URL and bytes. */
async function uploadPicture(name: string): Promise<{ url: string; bytes: Buffer }> {
  const bytes = makePng(300);
  const client = newClient(bucket.url);
  await client.auth.whenReady();
  const user = await client.auth.signUp({
    email: `${name}-${randomBytes(4).toString('hex')}@bucket.example`,
    password: 'bucket owner password',
    displayName: `${name} ${randomBytes(3).toString('hex')}`,
    thumbnail: new Blob([new Uint8Array(bytes)], { type: 'image/png' }),
    fileName: `${name}.png`,
  });
  return { url: `${bucket.url}${user.photoURL}`, bytes };
}

const timestamp = (iso: string) => {
  const millis = Date.parse(iso);
  return { _seconds: Math.floor(millis / 1000), _nanoseconds: (millis % 1000) * 1e6 };
};

async function writeFixture(name: string, content: unknown): Promise<string> {
  const file = path.join(fixtures, name);
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

function usersExport(anaHash: { passwordHash: string; salt: string }) {
  return {
    users: [
      {
        localId: PUBLISHED_USER.localId,
        email: PUBLISHED_USER.email,
        emailVerified: false,
        passwordHash: PUBLISHED_USER.passwordHash,
        salt: PUBLISHED_USER.salt,
        displayName: 'Test User 1',
        photoUrl: pictures.user1.url,
        lastSignedInAt: '1508893925000',
        createdAt: '1508893925000',
        disabled: false,
      },
      {
        localId: ANA.localId,
        email: ANA.email,
        emailVerified: true,
        passwordHash: anaHash.passwordHash,
        salt: anaHash.salt,
        displayName: 'Ana',
        photoUrl: pictures.ana.url,
        lastSignedInAt: '1700000000000',
        createdAt: '1690000000000',
        disabled: false,
      },
      {
        // Signed in with Google only: no password hash in the export; a picture outside the bucket.
        localId: SSO_ONLY.localId,
        email: SSO_ONLY.email,
        emailVerified: true,
        displayName: existing.user.displayName,
        photoUrl: 'https://lh3.googleusercontent.com/a/picture.png',
        providerUserInfo: [
          { providerId: 'google.com', rawId: '1234', email: SSO_ONLY.email, displayName: 'Gus' },
        ],
        createdAt: '1690000000000',
        disabled: false,
      },
      {
        // Disabled in Firebase: imported deactivated.
        localId: DISABLED.localId,
        email: DISABLED.email,
        passwordHash: anaHash.passwordHash,
        salt: anaHash.salt,
        displayName: 'Dora',
        createdAt: '1690000000000',
        disabled: true,
      },
      {
        // The email of an account that exists here already.
        localId: TAKEN.localId,
        email: existing.email.toUpperCase(),
        passwordHash: anaHash.passwordHash,
        salt: anaHash.salt,
        displayName: 'Someone',
        createdAt: '1690000000000',
      },
    ],
  };
}

const profilesCollection = () => ({
  collection: 'users',
  documents: [
    {
      id: PUBLISHED_USER.localId,
      data: { displayName: 'Test User 1', photoURL: pictures.user1.url, online: true },
    },
    { id: ANA.localId, data: { displayName: 'Ana', photoURL: pictures.ana.url, online: false } },
    { id: 'ProfileOnlyUid0000000000d4', data: { displayName: 'Ghost', photoURL: '', online: false } },
  ],
});

const projectsCollection = () => ({
  collection: 'projects',
  documents: [
    {
      id: PROJECT_ID,
      data: {
        name: 'Launch the site',
        details: 'Everything for the launch.',
        category: 'development',
        // The original app's due date: the chosen day's midnight UTC as a Timestamp.
        dueDate: timestamp('2027-03-14T00:00:00.000Z'),
        createdAt: timestamp('2024-05-01T09:30:00.250Z'),
        createdBy: { id: PUBLISHED_USER.localId, displayName: 'Test User 1', photoURL: pictures.user1.url },
        assignedUsersList: [
          { id: ANA.localId, displayName: 'Ana', photoURL: pictures.ana.url },
          { id: PUBLISHED_USER.localId, displayName: 'Test User 1', photoURL: pictures.user1.url },
          { id: 'NeverExportedUid00000000e5', displayName: 'Nobody', photoURL: '' },
        ],
        comments: [
          // The original app's comments: no author id, a Math.random() id; Ana's found by her picture.
          {
            id: 0.5123,
            displayName: 'Ana',
            photoURL: pictures.ana.url,
            content: 'Second, by Ana',
            createdAt: timestamp('2024-05-02T10:00:00.000Z'),
          },
          {
            id: 0.0417,
            displayName: 'Test User 1',
            photoURL: 'https://elsewhere.example/old.png',
            content: 'First, by user 1',
            createdAt: timestamp('2024-05-01T10:00:00.000Z'),
          },
          {
            id: 0.9,
            displayName: 'Ana',
            photoURL: pictures.ana.url,
            content: '   ',
            createdAt: timestamp('2024-05-03T10:00:00.000Z'),
          },
        ],
      },
    },
    {
      id: TAKEN_PROJECT_ID,
      data: {
        name: 'Quarterly numbers',
        details: 'For the review.',
        category: 'sales',
        dueDate: '2027-01-31',
        createdAt: '2024-06-01T08:00:00.000Z',
        createdBy: { id: TAKEN.localId, displayName: 'Someone', photoURL: '' },
        assignedUsersList: [{ id: SSO_ONLY.localId, displayName: 'Gus', photoURL: '' }],
        comments: [],
      },
    },
  ],
});

let files: { users: string; profiles: string; projects: string };

/** Every export of the fixture, with the bucket the pictures come from: what a real move-in runs. */
const fullImportArgs = (): string[] => [
  '--users',
  files.users,
  ...hashArgs,
  '--profiles',
  files.profiles,
  '--projects',
  files.projects,
  '--storage-origin',
  bucket.url,
];

beforeAll(async () => {
  fixtures = await mkdtemp(path.join(os.tmpdir(), 'dojo-firebase-fixtures-'));
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'dojo-firebase-target-'));
  databaseUrl = testDatabaseEngine() === 'postgres' ? await createTestDatabaseUrl() : undefined;
  bucket = await startTestServer();
  target = await startTestServer({ dataDir, ...(databaseUrl ? { databaseUrl } : {}) });
  existing = await signUpClient(target.url, 'Existing member');
  pictures = { user1: await uploadPicture('user1'), ana: await uploadPicture('ana') };

  const anaSalt = randomBytes(12);
  const anaHash = await firebaseScrypt(ANA.password, anaSalt, {
    signerKey: Buffer.from(HASH_KEY, 'base64'),
    saltSeparator: Buffer.from(SALT_SEPARATOR, 'base64'),
    rounds: ROUNDS,
    memCost: MEM_COST,
  });
  files = {
    users: await writeFixture(
      'users.json',
      usersExport({ passwordHash: anaHash.toString('base64'), salt: anaSalt.toString('base64') }),
    ),
    profiles: await writeFixture('users-collection.json', profilesCollection()),
    projects: await writeFixture('projects.json', projectsCollection()),
  };
  firstRun = await importWhileStopped(fullImportArgs());
});

afterAll(async () => {
  await target?.stop();
  await bucket?.stop();
  if (databaseUrl) await dropTestDatabase(databaseUrl);
  await rm(dataDir, { recursive: true, force: true });
  await rm(fixtures, { recursive: true, force: true });
});

describe('npm run import:firebase', () => {
  it('imports the accounts, projects, comments and pictures, and says what it skipped and why', () => {
    expect(firstRun.stderr).toBe('');
    expect(firstRun.code).toBe(0);
    const out = firstRun.stdout;
    expect(out).toContain('Users: 4 imported, 2 skipped');
    expect(out).toMatch(
      /skipped \S+ \(uid TakenEmailUid00000000000c3\): an account here already has this email/,
    );
    expect(out).toMatch(
      /skipped profile ProfileOnlyUid0000000000d4 \(Ghost\): in the users collection but not in the users export/,
    );
    expect(out).toContain('Projects: 2 imported, 0 skipped');
    expect(out).toContain('Comments: 2 imported, 1 skipped');
    expect(out).toMatch(/skipped comment 3 of project fsProjectDocId000001 \('Launch the site'\): empty/);
    expect(out).toContain('Thumbnails: 2 imported, 2 skipped');
    expect(out).toMatch(
      /gus@firebase\.example .*: its photoURL is not a download URL of http:\/\/127\.0\.0\.1:\d+; a generated picture instead/,
    );
    expect(out).toContain(`is named '${existing.user.displayName} (2)'`);
    expect(out).toMatch(
      /skipped dora@firebase\.example \(uid DisabledUid0000000000000g7\): no photoURL; a generated picture instead/,
    );
    expect(out).toContain(
      'assignee uid NeverExportedUid00000000e5 is not among the imported accounts, left out',
    );
  });

  it('lets the published example account and another sign in with their old passwords, then keeps our hash', async () => {
    expect((await storedHashOf(PUBLISHED_USER.localId)).startsWith('firebase-scrypt$8$14$')).toBe(true);
    const wrong = newClient(target.url);
    await wrong.auth.whenReady();
    await expect(
      wrong.auth.logIn({ email: PUBLISHED_USER.email, password: 'user1password!' }),
    ).rejects.toMatchObject({
      code: 'wrong-credentials',
    });
    expect((await storedHashOf(PUBLISHED_USER.localId)).startsWith('firebase-scrypt$')).toBe(true);

    for (const { id, email, password } of [
      { id: PUBLISHED_USER.localId, email: PUBLISHED_USER.email, password: PUBLISHED_USER.password },
      { id: ANA.localId, email: ANA.email, password: ANA.password },
    ]) {
      const client = newClient(target.url);
      await client.auth.whenReady();
      const user = await client.auth.logIn({ email, password });
      expect(user.uid).toBe(id);
      expect((await storedHashOf(id)).startsWith('scrypt$32768$8$1$')).toBe(true);
      await client.auth.logOut();
      // The old password still works: now through our own hash.
      const again = newClient(target.url);
      await again.auth.whenReady();
      expect((await again.auth.logIn({ email, password })).uid).toBe(id);
    }

    // Disabled in Firebase: the right password is told the account is deactivated, and nothing is written
    // for an account that may not sign in (it keeps Firebase's hash).
    const dora = newClient(target.url);
    await dora.auth.whenReady();
    await expect(dora.auth.logIn({ email: DISABLED.email, password: ANA.password })).rejects.toMatchObject({
      code: 'forbidden',
    });
    expect((await storedHashOf(DISABLED.localId)).startsWith('firebase-scrypt$')).toBe(true);
    await expect(dora.auth.logIn({ email: DISABLED.email, password: 'not hers' })).rejects.toMatchObject({
      code: 'wrong-credentials',
    });
  });

  it('serves the projects with their creator, assignees and comments, and the pictures from the bucket', async () => {
    const client = newClient(target.url);
    await client.auth.whenReady();
    const ana = await client.auth.logIn({ email: ANA.email, password: ANA.password });
    expect(ana.displayName).toBe('Ana');
    const avatar = await fetch(`${target.url}${ana.photoURL}`);
    expect(avatar.status).toBe(200);
    expect(Buffer.from(await avatar.arrayBuffer()).equals(pictures.ana.bytes)).toBe(true);

    const project = await client.projects.get(PROJECT_ID);
    expect(project).toMatchObject({
      name: 'Launch the site',
      details: 'Everything for the launch.',
      category: 'development',
      dueDate: '2027-03-14',
      createdAt: '2024-05-01T09:30:00.250Z',
      createdBy: { id: PUBLISHED_USER.localId, displayName: 'Test User 1' },
    });
    expect(project.assignedUsersList.map((user) => user.id)).toEqual([ANA.localId, PUBLISHED_USER.localId]);
    const creatorAvatar = await fetch(`${target.url}${project.createdBy.photoURL}`);
    expect(Buffer.from(await creatorAvatar.arrayBuffer()).equals(pictures.user1.bytes)).toBe(true);

    const { comments } = await client.projects.listComments(PROJECT_ID);
    const oldestFirst = [...comments].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    expect(oldestFirst.map(({ authorId, content, createdAt }) => ({ authorId, content, createdAt }))).toEqual(
      [
        {
          authorId: PUBLISHED_USER.localId,
          content: 'First, by user 1',
          createdAt: '2024-05-01T10:00:00.000Z',
        },
        { authorId: ANA.localId, content: 'Second, by Ana', createdAt: '2024-05-02T10:00:00.000Z' },
      ],
    );

    // The creator whose email was taken here: the existing account is credited; Gus, renamed, is assigned.
    const taken = await client.projects.get(TAKEN_PROJECT_ID);
    expect(taken.createdBy.id).toBe(existing.user.uid);
    expect(taken.dueDate).toBe('2027-01-31');
    expect(taken.assignedUsersList).toEqual([
      expect.objectContaining({ id: SSO_ONLY.localId, displayName: `${existing.user.displayName} (2)` }),
    ]);
    // The existing account keeps its own password.
    const existingAgain = newClient(target.url);
    await existingAgain.auth.whenReady();
    expect((await existingAgain.auth.logIn({ email: existing.email, password: existing.password })).uid).toBe(
      existing.user.uid,
    );
  });

  it('imports nothing twice', async () => {
    const before = await rowCounts();
    const second = await importWhileStopped(fullImportArgs());
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('Users: 0 imported');
    expect(second.stdout).toContain('Projects: 0 imported, 2 skipped');
    expect(second.stdout).toContain('Comments: 0 imported');
    expect(second.stdout).toContain('Thumbnails: 0 imported, 0 skipped');
    expect(await rowCounts()).toEqual(before);
  });

  it('refuses a malformed file of each kind with a message, and writes nothing', async () => {
    const newcomer = {
      users: [
        {
          localId: 'NewcomerUid000000000000f6',
          email: 'new@firebase.example',
          displayName: 'Newcomer',
          createdAt: '1690000000000',
        },
      ],
    };
    const goodUsers = await writeFixture('newcomer.json', newcomer);
    const cases: { args: string[]; message: RegExp }[] = [
      {
        args: [
          '--users',
          await writeFixture('bad-users.json', { users: [{ ...newcomer.users[0], salt: 12 }] }),
        ],
        message:
          /--users \S+bad-users\.json is not in the expected format; nothing was imported:\n {2}users\[0\]\.salt: /,
      },
      {
        args: [
          '--users',
          goodUsers,
          '--profiles',
          await writeFixture('bad-profiles.json', {
            collection: 'users',
            documents: [{ id: 'x/y', data: {} }],
          }),
        ],
        message:
          /--profiles \S+ is not in the expected format; nothing was imported:\n {2}documents\[0\]\.id: not an id/,
      },
      {
        args: [
          '--users',
          goodUsers,
          '--projects',
          await writeFixture('bad-projects.json', '{"collection": "projects", "documents": ['),
        ],
        message: /--projects \S+bad-projects\.json is not JSON/,
      },
      {
        args: [
          '--users',
          goodUsers,
          '--projects',
          await writeFixture('users-as-projects.json', profilesCollection()),
        ],
        message:
          /--projects \S+users-as-projects\.json is not in the expected format; nothing was imported:\n {2}collection: not the 'projects' collection/,
      },
    ];
    const before = await rowCounts();
    // One stop of the server for every run: the refusals side by side (each reads its files whole before
    // it writes anything), then the same newcomer with good files.
    const { refused, afterRefusals, good } = await whileStopped(async () => {
      const refused = await Promise.all(
        cases.map(({ args }) => runImport([...args, ...hashArgs, '--storage-origin', bucket.url])),
      );
      const afterRefusals = await rowCounts();
      return { refused, afterRefusals, good: await runImport(['--users', goodUsers, ...hashArgs]) };
    });
    cases.forEach(({ message }, index) => {
      expect(refused[index]?.code).toBe(1);
      expect(refused[index]?.stdout).toBe('');
      expect(refused[index]?.stderr).toMatch(message);
    });
    expect(afterRefusals).toEqual(before);
    // The newcomer was imported: the refusals were the files' fault.
    expect(good.stdout).toContain('Users: 1 imported, 0 skipped');
    expect((await rowCounts()).users).toBe(before.users + 1);
  });
});
