import { z } from 'zod/mini';

/** A user profile document (spec §3: collection users; the id equals the auth uid). */
export const UserProfileSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  photoURL: z.string(),
  online: z.boolean(),
});
export type UserProfile = z.infer<typeof UserProfileSchema>;

export const UserListSchema = z.object({ users: z.array(UserProfileSchema) });
