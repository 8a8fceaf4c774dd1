import { z } from 'zod/mini';
import { DISPLAY_NAME_MAX_LENGTH } from './limits';
import type { LiveQuery } from './live-protocol-schemas';

/** An account's role (docs/decisions/018-team-roles.md): admins manage who joins; members use the app. */
export const ROLES = ['admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

/** A user profile document (docs/product-spec.md#33-user-profile: collection users; the id equals the auth uid). */
const UserProfileSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  photoURL: z.string(),
  online: z.boolean(),
  role: z.enum(ROLES),
});
export type UserProfile = z.infer<typeof UserProfileSchema>;

/**
 * What a display name is searched by: case and accents ignored ("jose" finds "José"). The server stores
 * it beside the name and the live service matches changes with it, so both agree.
 */
export const nameSearchKey = (text: string): string =>
  text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * What makes two display names the same name (docs/decisions/046-members-who-leave.md): compatibility
 * forms folded (NFKC: full-width letters, ligatures, superscripts), case folded (upper then lower, so
 * "ß" matches "SS"), spaces trimmed and runs of them made one. No two accounts share a key.
 */
export const displayNameKey = (name: string): string =>
  name.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC').replace(/\s+/gu, ' ').trim();

/** Users the panel shows per page ("Show more" adds as many). */
export const USERS_PAGE_SIZE = 50;

/** The users panel's live query: by display name, one more than shown to know whether there are more. */
export const usersPanelQuery = (shown: number) =>
  ({
    kind: 'query',
    collection: 'users',
    orderBy: { field: 'displayName', direction: 'asc' },
    limit: shown + 1,
  }) as const;

/** How many users one "Assign to" search shows; typing narrows it on the server. */
export const USER_SEARCH_LIMIT = 50;

/**
 * "Assign to"'s live query: users whose name contains `text` (case and accents ignored), by name; all
 * users, by name, while nothing is typed. Text longer than any name is cut to that length (it can match
 * nothing longer anyway, and the protocol bounds filter values).
 */
export const userSearchQuery = (text: string): LiveQuery => ({
  kind: 'query',
  collection: 'users',
  ...(text
    ? {
        where: [{ field: 'displayName', op: 'contains-text', value: text.slice(0, DISPLAY_NAME_MAX_LENGTH) }],
      }
    : {}),
  orderBy: { field: 'displayName', direction: 'asc' },
  limit: USER_SEARCH_LIMIT,
});

export const UserListSchema = z.object({ users: z.array(UserProfileSchema) });
