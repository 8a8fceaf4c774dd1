import type { AuthOptions } from '../../../common';
import type { SsoOptions } from '../../../common/single-sign-on';
import { useOneShotRead } from '../../hooks/use-one-shot-read';
import { dojo } from '../../lib/dojo-client';

/**
 * What the server allows before sign-in (who may sign up, whether a reset link can be emailed); null
 * until it is known, and when it could not be fetched (the forms then work as before and the server
 * says what it refuses).
 */
export function useAuthOptions(): (AuthOptions & SsoOptions) | null {
  return useOneShotRead('auth-options', () => dojo.access.options()).data?.value ?? null;
}
