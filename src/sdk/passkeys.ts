import type { AuthResult, AuthUser } from '../common';
import { passkeyMessages, type Passkey, type PasskeyList } from '../common/passkeys';
import type { AuthClient } from './auth';
import { DojoError } from './errors';
import type { Transport } from './transport';

interface CeremonyOptions {
  flow: string;
  options: Record<string, unknown>;
}

/**
 * Passkeys (docs/decisions/065-passkeys.md): the signed-in member's in settings, and signing in with one.
 * Each method that needs the authenticator runs the browser's WebAuthn ceremony between the server's
 * options and the server's check. Not part of `createDojoCoreClient`: only the settings and login screens
 * use it, and @simplewebauthn/browser is loaded when a ceremony starts, so neither is in the first page's
 * bundle. Build it on a client's parts: `new PasskeysClient(dojo.transport, dojo.auth)`.
 */
export class PasskeysClient {
  constructor(
    private readonly transport: Transport,
    private readonly auth: AuthClient,
  ) {}

  list(): Promise<PasskeyList> {
    return this.transport.request<PasskeyList>('GET', '/api/account/passkeys');
  }

  /** Makes a passkey on this device (the browser asks the member) and adds it under `name`. */
  async add(name: string): Promise<Passkey> {
    const { flow, options } = await this.transport.request<CeremonyOptions>(
      'POST',
      '/api/account/passkeys/options',
    );
    const { startRegistration } = await loadBrowserWebAuthn();
    const response = await ceremony(() => startRegistration({ optionsJSON: options as never }));
    const added = await this.transport.request<{ passkey: Passkey }>('POST', '/api/account/passkeys', {
      flow,
      name,
      response,
    });
    return added.passkey;
  }

  async rename(id: string, name: string): Promise<Passkey> {
    const path = `/api/account/passkeys/${encodeURIComponent(id)}`;
    return (await this.transport.request<{ passkey: Passkey }>('PATCH', path, { name })).passkey;
  }

  async remove(id: string): Promise<void> {
    await this.transport.request<void>('DELETE', `/api/account/passkeys/${encodeURIComponent(id)}`);
  }

  /** Signs in with a passkey alone: the browser offers the ones it holds for this site. */
  async signIn(): Promise<AuthUser> {
    const { flow, options } = await this.transport.request<CeremonyOptions>(
      'POST',
      '/api/auth/passkey/options',
    );
    const { startAuthentication } = await loadBrowserWebAuthn();
    const response = await ceremony(() => startAuthentication({ optionsJSON: options as never }));
    const result = await this.transport.request<AuthResult>('POST', '/api/auth/passkey', { flow, response });
    return this.auth.acceptAuthResult(result);
  }

  /** Gives a password login's second step (its `flow`, from `beginLogIn`) with one of the member's passkeys. */
  async completeSecondStep(flow: string): Promise<AuthUser> {
    const started = await this.transport.request<CeremonyOptions>(
      'POST',
      '/api/auth/second-step/passkey/options',
      {
        flow,
      },
    );
    const { startAuthentication } = await loadBrowserWebAuthn();
    const response = await ceremony(() => startAuthentication({ optionsJSON: started.options as never }));
    const result = await this.transport.request<AuthResult>('POST', '/api/auth/second-step/passkey', {
      flow,
      response,
    });
    return this.auth.acceptAuthResult(result);
  }
}

const loadBrowserWebAuthn = () => import('@simplewebauthn/browser');

/**
 * Runs the browser's part. The member closing the browser's dialog (or its timeout) is said plainly rather
 * than as the browser's wording; so are a browser without WebAuthn and a passkey this account has already.
 */
async function ceremony<T>(run: () => Promise<T>): Promise<T> {
  const { browserSupportsWebAuthn } = await loadBrowserWebAuthn();
  if (!browserSupportsWebAuthn()) throw new DojoError('internal', passkeyMessages.unsupported, 0);
  try {
    return await run();
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'NotAllowedError' || name === 'AbortError') {
      throw new DojoError('internal', passkeyMessages.cancelled, 0);
    }
    if (name === 'InvalidStateError') throw new DojoError('conflict', passkeyMessages.alreadyAdded, 0);
    throw new DojoError('internal', error instanceof Error ? error.message : passkeyMessages.notVerified, 0);
  }
}
