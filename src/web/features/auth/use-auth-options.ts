import { useEffect, useState } from 'react';
import type { AuthOptions } from '../../../common';
import { dojo } from '../../lib/dojo-client';

/**
 * What the server allows before sign-in (who may sign up, whether a reset link can be emailed); null
 * until it is known, and when it could not be fetched (the forms then work as before and the server
 * says what it refuses).
 */
export function useAuthOptions(): AuthOptions | null {
  const [options, setOptions] = useState<AuthOptions | null>(null);
  useEffect(() => {
    let current = true;
    dojo.access.options().then(
      (received) => {
        if (current) setOptions(received);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, []);
  return options;
}
