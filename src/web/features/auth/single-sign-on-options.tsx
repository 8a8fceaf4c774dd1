import { useSearchParams } from 'react-router';
import type { AuthOptions } from '../../../common';
import {
  isSsoErrorCode,
  signInWithLabel,
  SSO_ERROR_MESSAGES,
  ssoStartPath,
  type SsoOptions,
} from '../../../common/single-sign-on';
import { ErrorAlert } from '../../components/error-alert';
import './single-sign-on.css';

interface Props {
  options: (AuthOptions & SsoOptions) | null;
  /** The invitation and setup links' tokens ride through the provider to the account it makes. */
  invitation?: string | null;
  setup?: string | null;
}

/**
 * "Sign in with <provider>" for each configured provider, and why the last provider sign-in came back
 * here (`?sso_error=`, said as an alert). Each button is a plain link: the server redirects to the
 * provider, and the provider back to the server. When the team requires single sign-on, the password
 * form below is for admins only, and the screen says so.
 */
export function SingleSignOnOptions({ options, invitation, setup }: Props) {
  const [searchParams] = useSearchParams();
  const errorCode = searchParams.get('sso_error');
  const error = isSsoErrorCode(errorCode) ? SSO_ERROR_MESSAGES[errorCode] : null;
  const providers = options?.providers ?? [];
  return (
    <>
      <ErrorAlert message={error} />
      {providers.length > 0 && (
        <div className="sso-options">
          <ul className="sso-providers" aria-label="Single sign-on">
            {providers.map((provider) => (
              <li key={provider.id}>
                <a
                  className="btn sso-provider"
                  href={ssoStartPath(provider.id, {
                    invitation: invitation ?? undefined,
                    setup: setup ?? undefined,
                  })}
                >
                  {signInWithLabel(provider)}
                </a>
              </li>
            ))}
          </ul>
          <p className="sso-divider">
            {options?.ssoRequired
              ? 'This team signs in with single sign-on. Password sign-in is for admins:'
              : 'or with your email:'}
          </p>
        </div>
      )}
    </>
  );
}
