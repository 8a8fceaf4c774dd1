import type { IncomingHttpHeaders } from 'node:http';
import { passkeyMessages } from '../../common/passkeys';
import { AppError } from '../core/app-error';

/** Who the passkeys belong to (the RP ID, a host name) and the one origin a ceremony may come from. */
export interface RelyingParty {
  rpId: string;
  origin: string;
}

/**
 * The relying party a WebAuthn ceremony is for (docs/decisions/065-passkeys.md).
 *
 * With `PUBLIC_URL` it is that URL's host name and origin, whatever the request's `Host` says: a forged
 * Host changes nothing. Without it the app knows itself only by the request, so the RP ID is the `Host`'s
 * host name and the origin is the request's `Origin`, accepted only when its host is that same `Host`
 * (the check the cross-site guard makes, docs/decisions/010-cross-site-requests-and-proxies.md). Either way
 * the library then requires the browser's signed client data to name exactly this origin and the
 * authenticator's data to be for exactly this RP ID, so a Host an attacker wrote can only ever select a
 * site whose page really produced the answer: a passkey registered for one host name never verifies
 * under another.
 */
export function relyingPartyOf(headers: IncomingHttpHeaders, publicUrl: string | undefined): RelyingParty {
  if (publicUrl !== undefined) {
    const url = new URL(publicUrl);
    return { rpId: url.hostname, origin: url.origin };
  }
  const origin = originOf(headers.origin);
  if (!origin || headers.host === undefined || origin.host !== headers.host) {
    throw new AppError('forbidden', passkeyMessages.wrongSite);
  }
  return { rpId: origin.hostname, origin: origin.origin };
}

function originOf(value: string | undefined): URL | undefined {
  if (value === undefined) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}
