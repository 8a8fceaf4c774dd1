import { describe, expect, it } from 'vitest';
import { passkeyMessages } from '../../common/passkeys';
import { relyingPartyOf } from './relying-party';

describe('relyingPartyOf', () => {
  it('is the public URL’s host name and origin, whatever the request says', () => {
    const headers = { host: 'evil.test', origin: 'https://evil.test' };
    expect(relyingPartyOf(headers, 'https://dojo.example:8443')).toEqual({
      rpId: 'dojo.example',
      origin: 'https://dojo.example:8443',
    });
  });

  it("without one, is the request's host when its Origin names that same host", () => {
    expect(relyingPartyOf({ host: 'localhost:3000', origin: 'http://localhost:3000' }, undefined)).toEqual({
      rpId: 'localhost',
      origin: 'http://localhost:3000',
    });
    // Behind a TLS proxy the scheme is the browser's, as its Origin says.
    expect(relyingPartyOf({ host: 'dojo.example', origin: 'https://dojo.example' }, undefined)).toEqual({
      rpId: 'dojo.example',
      origin: 'https://dojo.example',
    });
  });

  it.each([
    ['no Origin', { host: 'dojo.example' }],
    ['another host', { host: 'dojo.example', origin: 'https://evil.test' }],
    ['another port', { host: 'dojo.example:3000', origin: 'https://dojo.example:4000' }],
    ['an opaque origin', { host: 'dojo.example', origin: 'null' }],
    ['a non-web scheme', { host: 'dojo.example', origin: 'ftp://dojo.example' }],
    ['no Host', { origin: 'https://dojo.example' }],
  ])('refuses a request with %s when there is no public URL', (_case, headers) => {
    expect(() => relyingPartyOf(headers, undefined)).toThrow(passkeyMessages.wrongSite);
  });
});
