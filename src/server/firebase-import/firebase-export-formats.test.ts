import { describe, expect, it } from 'vitest';
import {
  FirebaseAuthExportSchema,
  FirebaseImportError,
  parseExportFile,
  ProfilesCollectionSchema,
  ProjectsCollectionSchema,
  timestampToDate,
} from './firebase-export-formats';

/** An account as `firebase auth:export --format=json` writes it (firebase-tools' exporter's field names). */
const exportedAccount = {
  localId: 'kYi4EvWQlQTKSfnJ3dRSP6IH3ed2',
  email: 'user1@test.com',
  emailVerified: false,
  passwordHash: 'lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==',
  salt: '42xEC+ixf3L2lw==',
  displayName: 'Test User 1',
  lastSignedInAt: '1508893925000',
  createdAt: '1508893925000',
  disabled: false,
  providerUserInfo: [{ providerId: 'google.com', rawId: '1234', email: 'user1@test.com' }],
  customAttributes: '{ "admin": true }',
};

const problemOf = (call: () => unknown): string => {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(FirebaseImportError);
    return (error as Error).message;
  }
  throw new Error('not refused');
};

describe('the Firebase export formats', () => {
  it('reads an auth:export account, ignoring the fields it does not carry', () => {
    const parsed = parseExportFile(
      '--users u.json',
      JSON.stringify({ users: [exportedAccount] }),
      FirebaseAuthExportSchema,
    );
    expect(parsed.users[0]).toMatchObject({ localId: exportedAccount.localId, salt: exportedAccount.salt });
    expect(parsed.users[0]).not.toHaveProperty('customAttributes');
  });

  it('refuses a file that is not JSON, naming it', () => {
    expect(
      problemOf(() => parseExportFile('--users u.json', '{"users": [', FirebaseAuthExportSchema)),
    ).toMatch(/^--users u\.json is not JSON: /);
  });

  it('names each problem by its path, the first five and how many more', () => {
    const users = Array.from({ length: 7 }, (_, index) => ({
      ...exportedAccount,
      localId: `uid${index}`,
      salt: 'no salt!',
    }));
    const message = problemOf(() =>
      parseExportFile('--users u.json', JSON.stringify({ users }), FirebaseAuthExportSchema),
    );
    expect(message.split('\n')).toEqual([
      '--users u.json is not in the expected format; nothing was imported:',
      '  users[0].salt: not base64',
      '  users[1].salt: not base64',
      '  users[2].salt: not base64',
      '  users[3].salt: not base64',
      '  users[4].salt: not base64',
      '  and 2 more',
    ]);
  });

  it('refuses ids that cannot be ours, and the wrong collection', () => {
    const profiles = { collection: 'users', documents: [{ id: 'a/b', data: {} }] };
    expect(
      problemOf(() =>
        parseExportFile('--profiles p.json', JSON.stringify(profiles), ProfilesCollectionSchema),
      ),
    ).toContain('documents[0].id: not an id');
    expect(
      problemOf(() =>
        parseExportFile('--projects p.json', JSON.stringify(profiles), ProjectsCollectionSchema),
      ),
    ).toContain("collection: not the 'projects' collection");
  });

  it('reads Timestamps as firebase-admin serialises them, in their public shape, and as ISO strings', () => {
    expect(timestampToDate({ _seconds: 1714555800, _nanoseconds: 250_000_000 }).toISOString()).toBe(
      '2024-05-01T09:30:00.250Z',
    );
    expect(timestampToDate({ seconds: 1714555800, nanoseconds: 0 }).toISOString()).toBe(
      '2024-05-01T09:30:00.000Z',
    );
    expect(timestampToDate('2024-05-01T11:30:00+02:00').toISOString()).toBe('2024-05-01T09:30:00.000Z');
    const project = {
      name: 'n',
      details: 'd',
      category: 'design',
      dueDate: 'tomorrow',
      createdAt: '2024-05-01T09:30:00.000Z',
      createdBy: { id: 'u1' },
    };
    const file = JSON.stringify({ collection: 'projects', documents: [{ id: 'p1', data: project }] });
    expect(problemOf(() => parseExportFile('--projects p.json', file, ProjectsCollectionSchema))).toContain(
      'documents[0].data.dueDate',
    );
  });
});
