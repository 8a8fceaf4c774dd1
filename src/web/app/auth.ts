/**
 * The signed-in user for every feature. Features do not import each other; they reach auth through here.
 */
export { useAuthContext } from '../features/auth/auth-context';
export type { AuthContextValue } from '../features/auth/auth-context';
