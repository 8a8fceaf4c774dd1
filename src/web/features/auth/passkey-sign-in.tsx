import { useState } from 'react';
import { PasskeysClient } from '../../../sdk/passkeys';
import { BusyButton } from '../../components/busy-button';
import { ErrorAlert } from '../../components/error-alert';
import { useAuthContext } from '../../hooks/use-auth-context';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';
import './passkey-sign-in.css';

const passkeys = new PasskeysClient(dojo.transport, dojo.auth);

/**
 * Signing in with a passkey (docs/decisions/065-passkeys.md): alone on the login page, where the browser
 * offers the passkeys it holds for this site, or, given `secondStepFlow`, as the second step after a
 * password, with one of that member's passkeys. The browser's WebAuthn code loads on the click.
 */
export function PasskeySignIn({ secondStepFlow }: { secondStepFlow?: string }) {
  const { dispatch } = useAuthContext();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const signIn = async () => {
    setPending(true);
    setError(null);
    try {
      const user =
        secondStepFlow === undefined
          ? await passkeys.signIn()
          : await passkeys.completeSecondStep(secondStepFlow);
      dispatch({ type: 'LOGIN', payload: user });
    } catch (caught) {
      setError(errorMessage(caught));
      setPending(false);
    }
  };

  return (
    <div className="passkey-sign-in">
      {secondStepFlow === undefined && <p className="passkey-divider">or without a password:</p>}
      <BusyButton className="btn passkey-button" busy={pending} onClick={() => void signIn()}>
        {pending
          ? 'Waiting for your passkey...'
          : secondStepFlow === undefined
            ? 'Sign in with a passkey'
            : 'Use a passkey'}
      </BusyButton>
      <ErrorAlert message={error} />
    </div>
  );
}
