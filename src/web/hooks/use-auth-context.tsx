import {
  createContext,
  useContext,
  useEffect,
  useMemo,
  useReducer,
  type Dispatch,
  type ReactNode,
} from 'react';
import type { AuthUser, UserProfile } from '../../common';
import { dojo } from '../lib/dojo-client';

/** docs/product-spec.md#41-auth-state: no user and not ready at first; ready once the first auth state is known. */
interface AuthState {
  user: AuthUser | null;
  authIsReady: boolean;
}

type AuthAction =
  | { type: 'LOGIN'; payload: AuthUser }
  | { type: 'LOGOUT' }
  | { type: 'AUTH_IS_READY'; payload: AuthUser | null };

export interface AuthContextValue extends AuthState {
  dispatch: Dispatch<AuthAction>;
}

const initialAuthState: AuthState = { user: null, authIsReady: false };

function authReducer(state: AuthState, action: AuthAction): AuthState {
  switch (action.type) {
    case 'LOGIN':
      return { ...state, user: action.payload };
    case 'LOGOUT':
      return { ...state, user: null };
    case 'AUTH_IS_READY':
      return { user: action.payload, authIsReady: true };
  }
}

const AuthContext = createContext<AuthContextValue | null>(null);

export function AuthContextProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(authReducer, initialAuthState);

  useEffect(() => {
    // The SDK's listener follows the session for the app's whole life (docs/product-spec.md#flaw-7): a logout in
    // another tab or an expired session reaches us as LOGOUT, not only the first state.
    let ready = false;
    return dojo.auth.onAuthStateChanged((user) => {
      if (!ready) {
        ready = true;
        dispatch({ type: 'AUTH_IS_READY', payload: user });
      } else if (user) {
        dispatch({ type: 'LOGIN', payload: user });
      } else {
        dispatch({ type: 'LOGOUT' });
      }
    });
  }, []);

  // The signed-in user's own profile, live: a new name or avatar (from another tab) or a role an admin
  // changed reaches the sidebar and the admin screens at once.
  const uid = state.user?.uid;
  useEffect(() => {
    if (!uid) return undefined;
    return dojo.subscribe<UserProfile>(
      { kind: 'doc', collection: 'users', id: uid },
      {
        next: (docs) => {
          const profile = docs[0];
          const user = dojo.auth.currentUser;
          if (!profile || !user || user.uid !== profile.id) return;
          const { displayName, photoURL } = profile;
          // A server that sends no role yet leaves the one the session started with.
          const role = (profile.role as AuthUser['role'] | undefined) ?? user.role;
          dojo.auth.handleProfileChanged({ ...user, displayName, photoURL, role });
        },
        // A failed subscription leaves the profile as it was signed in with; the session's own checks
        // still apply on the server.
        error: () => undefined,
      },
    );
  }, [uid]);

  const value = useMemo(() => ({ ...state, dispatch }), [state]);
  return <AuthContext value={value}>{children}</AuthContext>;
}

export function useAuthContext(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuthContext must be used inside an AuthContextProvider');
  return context;
}
