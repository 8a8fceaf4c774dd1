import { z } from 'zod/mini';

/** A user profile document (spec §3: collection users; the id equals the auth uid). */
export const UserProfileSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  photoURL: z.string(),
  online: z.boolean(),
});
export type UserProfile = z.infer<typeof UserProfileSchema>;

/**
 * What a display name is searched by: case and accents ignored ("jose" finds "José"). The server stores
 * it beside the name and the live service matches changes with it, so both agree.
 */
export const nameSearchKey = (text: string): string =>
  text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

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

export const UserListSchema = z.object({ users: z.array(UserProfileSchema) });
