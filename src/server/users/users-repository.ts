import { sql, type Kysely, type Selectable } from 'kysely';
import {
  displayNameKey,
  nameSearchKey,
  type Member,
  type Role,
  type UserProfile,
  type UserRef,
} from '../../common';
import type { AccountStatus, Database, UsersTable } from '../db/schema';

export type UserRow = Selectable<UsersTable>;

const toUserProfile = (
  row: Pick<UserRow, 'id' | 'display_name' | 'photo_url' | 'online' | 'role'>,
): UserProfile => ({
  id: row.id,
  displayName: row.display_name,
  photoURL: row.photo_url,
  online: row.online === 1,
  role: row.role,
});

/**
 * The columns a profile is made of (`toUserProfile`), ready for filters, order and limit. Only active
 * accounts have a profile: deactivated and deleted ones leave the users panel and 'Assign to'.
 */
const selectUserProfiles = (db: Kysely<Database>) =>
  db
    .selectFrom('users')
    .select(['id', 'display_name', 'photo_url', 'online', 'role'])
    .where('status', '=', 'active');

/** The profile fields a list can be filtered (==) or ordered by, and their columns. */
export const USER_PROFILE_COLUMNS = { id: 'id', displayName: 'display_name', online: 'online' } as const;
export type UserProfileField = keyof typeof USER_PROFILE_COLUMNS;

export type UserProfileFilter =
  { field: 'displayName'; containsText: string } | { field: UserProfileField; equals: string | boolean };

export interface UserProfileQuery {
  where: UserProfileFilter[];
  orderBy: { field: UserProfileField; direction: 'asc' | 'desc' };
  limit?: number | undefined;
}

/** Profiles matching every filter, in order (ties by id), at most `limit`. */
export async function listUserProfiles(
  db: Kysely<Database>,
  { where, orderBy, limit }: UserProfileQuery,
): Promise<UserProfile[]> {
  let select = selectUserProfiles(db);
  for (const filter of where) {
    if ('containsText' in filter) {
      select = select.where(nameContains(filter.containsText));
    } else {
      const value = filter.field === 'online' ? (filter.equals === true ? 1 : 0) : String(filter.equals);
      select = select.where(USER_PROFILE_COLUMNS[filter.field], '=', value);
    }
  }
  select = select
    .orderBy(USER_PROFILE_COLUMNS[orderBy.field], orderBy.direction)
    .orderBy('id', orderBy.direction);
  if (limit) select = select.limit(limit);
  return (await select.execute()).map(toUserProfile);
}

export async function findUserProfile(db: Kysely<Database>, id: string): Promise<UserProfile | null> {
  const row = await selectUserProfiles(db).where('id', '=', id).executeTakeFirst();
  return row ? toUserProfile(row) : null;
}

export const findUserByEmailKey = async (db: Kysely<Database>, emailKey: string) =>
  (await db.selectFrom('users').selectAll().where('email_key', '=', emailKey).executeTakeFirst()) ?? null;

/** Whether an account other than `exceptId` goes by `displayName` (`displayNameKey`, decision 046). */
export async function isDisplayNameTaken(
  db: Kysely<Database>,
  displayName: string,
  exceptId: string | null,
): Promise<boolean> {
  let select = db.selectFrom('users').select('id').where('name_key', '=', displayNameKey(displayName));
  if (exceptId) select = select.where('id', '!=', exceptId);
  return (await select.executeTakeFirst()) !== undefined;
}

export const findUserById = async (db: Kysely<Database>, id: string): Promise<UserRow | null> =>
  (await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;

/**
 * Claims the install's ownership for `uid` unless someone already has it: the first account of a fresh
 * install becomes its first admin, and of two signups racing for it exactly one wins (primary key).
 */
export async function claimOwnership(db: Kysely<Database>, uid: string): Promise<boolean> {
  const result = await db
    .insertInto('settings')
    .values({ key: 'owner', value: uid })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * Serializes every change to who is an admin, inside the caller's transaction: a write to the one
 * `owner` row holds its row lock (PostgreSQL) or the write lock (SQLite) until commit, so two admins
 * demoting each other at once run one after the other, and the second sees the first's result.
 */
export async function lockAdminChanges(trx: Kysely<Database>): Promise<void> {
  await trx
    .updateTable('settings')
    .set({ value: sql`value` })
    .where('key', '=', 'owner')
    .execute();
}

export async function countActiveAdmins(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .where('role', '=', 'admin')
    .where('status', '=', 'active')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function setUserRole(db: Kysely<Database>, id: string, role: Role, now: string): Promise<void> {
  await db.updateTable('users').set({ role, updated_at: now }).where('id', '=', id).execute();
}

export async function setUserStatus(
  db: Kysely<Database>,
  id: string,
  status: AccountStatus,
  now: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ status, online: status === 'active' ? sql`online` : 0, updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function updateUserProfile(
  db: Kysely<Database>,
  id: string,
  profile: { displayName?: string | undefined; photoURL?: string | undefined },
  now: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({
      ...(profile.displayName === undefined
        ? {}
        : {
            display_name: profile.displayName,
            search_name: nameSearchKey(profile.displayName),
            name_key: displayNameKey(profile.displayName),
          }),
      ...(profile.photoURL === undefined ? {} : { photo_url: profile.photoURL }),
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

export async function updatePasswordHash(
  db: Kysely<Database>,
  id: string,
  passwordHash: string,
  now: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/**
 * Replaces the password hash only if it is still `previous` (a login's re-hash must not undo a password
 * changed or reset meanwhile); true when it did.
 */
export async function replacePasswordHashIfUnchanged(
  db: Kysely<Database>,
  id: string,
  previous: string,
  next: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ password_hash: next, updated_at: now })
    .where('id', '=', id)
    .where('password_hash', '=', previous)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * What is left of a deleted account: its id (projects and comments point at it) under a placeholder name,
 * without email, password or photo, so the address can sign up again.
 */
export async function eraseUser(
  db: Kysely<Database>,
  id: string,
  placeholder: { displayName: string; photoURL: string },
  now: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({
      status: 'deleted',
      role: 'member',
      email: '',
      email_key: `deleted:${id}`,
      password_hash: '',
      display_name: placeholder.displayName,
      search_name: nameSearchKey(placeholder.displayName),
      name_key: null,
      photo_url: placeholder.photoURL,
      online: 0,
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

export async function touchUserActivity(db: Kysely<Database>, id: string, now: string): Promise<void> {
  await db.updateTable('users').set({ last_active_at: now }).where('id', '=', id).execute();
}

const toMember = (
  row: Pick<
    UserRow,
    | 'id'
    | 'display_name'
    | 'photo_url'
    | 'email'
    | 'role'
    | 'online'
    | 'status'
    | 'last_active_at'
    | 'created_at'
  >,
): Member => ({
  id: row.id,
  displayName: row.display_name,
  photoURL: row.photo_url,
  email: row.email,
  role: row.role,
  online: row.online === 1,
  status: row.status === 'deactivated' ? 'deactivated' : 'active',
  lastActiveAt: row.last_active_at,
  createdAt: row.created_at,
});

const selectMembers = (db: Kysely<Database>) =>
  db
    .selectFrom('users')
    .select([
      'id',
      'display_name',
      'photo_url',
      'email',
      'role',
      'online',
      'status',
      'last_active_at',
      'created_at',
    ])
    .where('status', '!=', 'deleted');

export async function findMember(db: Kysely<Database>, id: string): Promise<Member | null> {
  const row = await selectMembers(db).where('id', '=', id).executeTakeFirst();
  return row ? toMember(row) : null;
}

/**
 * A page of members by display name (ties by id), after the keyset `after` and narrowed by `search`
 * (in the name, case and accents ignored, or in the email). Reads `limit + 1` to know whether more follow.
 */
export async function listMembers(
  db: Kysely<Database>,
  page: { search: string | undefined; after: { displayName: string; id: string } | undefined; limit: number },
): Promise<{ members: Member[]; more: boolean }> {
  let select = selectMembers(db);
  if (page.search) {
    const pattern = `%${escapeLike(nameSearchKey(page.search))}%`;
    const emailPattern = `%${escapeLike(page.search.toLowerCase())}%`;
    select = select.where(
      sql<boolean>`(search_name like ${pattern} escape ${LIKE_ESCAPE} or email_key like ${emailPattern} escape ${LIKE_ESCAPE})`,
    );
  }
  if (page.after) {
    const { displayName, id } = page.after;
    select = select.where((eb) =>
      eb.or([
        eb('display_name', '>', displayName),
        eb.and([eb('display_name', '=', displayName), eb('id', '>', id)]),
      ]),
    );
  }
  const rows = await select
    .orderBy('display_name')
    .orderBy('id')
    .limit(page.limit + 1)
    .execute();
  return { members: rows.slice(0, page.limit).map(toMember), more: rows.length > page.limit };
}
export async function insertUser(
  db: Kysely<Database>,
  user: {
    id: string;
    email: string;
    emailKey: string;
    passwordHash: string;
    displayName: string;
    photoURL: string;
    role: Role;
    now: string;
  },
): Promise<void> {
  await db
    .insertInto('users')
    .values({
      id: user.id,
      email: user.email,
      email_key: user.emailKey,
      password_hash: user.passwordHash,
      display_name: user.displayName,
      search_name: nameSearchKey(user.displayName),
      name_key: displayNameKey(user.displayName),
      photo_url: user.photoURL,
      online: 1,
      role: user.role,
      status: 'active',
      last_active_at: user.now,
      created_at: user.now,
      updated_at: user.now,
    })
    .execute();
}

const LIKE_ESCAPE = '\\';
/** The text matched literally inside a LIKE pattern: `%`, `_` and the escape itself lose their meaning. */
const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (char) => `${LIKE_ESCAPE}${char}`);

/** A filter on users: the display name contains `text`, ignoring case and accents (`nameSearchKey`). */
const nameContains = (text: string) =>
  sql<boolean>`search_name like ${`%${escapeLike(nameSearchKey(text))}%`} escape ${LIKE_ESCAPE}`;

/**
 * The active users among `ids`, as projects show them (name and photo): who may be assigned work.
 * Deactivated and deleted accounts are left out, as they are from 'Assign to'.
 */
export async function listAssignableUserRefs(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<UserRef[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('users')
    .select(['id', 'display_name as displayName', 'photo_url as photoURL'])
    .where('id', 'in', ids)
    .where('status', '=', 'active')
    .execute();
}
