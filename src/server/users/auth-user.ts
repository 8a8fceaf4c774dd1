import type { AuthUser } from '../../common';
import type { UserRow } from './users-repository';

/** The signed-in user a sign-in answers with and a session stands for, from the account's row. */
export const authUserOf = (user: UserRow): AuthUser => ({
  uid: user.id,
  email: user.email,
  displayName: user.display_name,
  photoURL: user.photo_url,
  role: user.role,
});
