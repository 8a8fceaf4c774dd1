import {
  createContext,
  useContext,
  useEffect,
  useMemo,
  useReducer,
  type Dispatch,
  type ReactNode,
} from 'react';
import type { AuthUser } from '../../common';
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

  const value = useMemo(() => ({ ...state, dispatch }), [state]);
  return <AuthContext value={value}>{children}</AuthContext>;
}

export function useAuthContext(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuthContext must be used inside an AuthContextProvider');
  return context;
}
