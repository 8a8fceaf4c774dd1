import { describe, expect, it } from 'vitest';
import {
  cookieOf,
  send,
  sessionUserOf,
  signInOptions,
  type Ceremony,
} from '../../../test/support/passkey-ceremonies';
import { SoftwareAuthenticator, type CreationOptions } from '../../../test/support/software-authenticator';
import { useTwoInstanceTeam } from '../../../test/support/test-team';

const PUBLIC_URL = 'https://dojo.example';

describe('passkeys on two instances behind one public URL', () => {
  const team = useTwoInstanceTeam({ ada: ['Ada', 'first'] }, { publicUrl: PUBLIC_URL });
  const authenticator = new SoftwareAuthenticator();

  it('adds a passkey and signs in with it, each answer on the instance that did not ask, and once only', async () => {
    const { first, second } = team.instances;
    const started = await send<Ceremony<CreationOptions>>(first, 'POST', '/api/account/passkeys/options', {
      cookie: cookieOf(team.ada),
      origin: PUBLIC_URL,
    });
    const created = authenticator.register(started.body.options, PUBLIC_URL);
    const added = await send(second, 'POST', '/api/account/passkeys', {
      cookie: cookieOf(team.ada),
      origin: PUBLIC_URL,
      json: { flow: started.body.flow, name: 'Laptop', response: created },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);

    // Signing in, likewise: options from one instance, the answer to the other.
    const { flow, options } = await signInOptions(first, PUBLIC_URL);
    const response = authenticator.assert(options, PUBLIC_URL);
    // The same answer reaches both instances at once (a retry through the balancer): one signs in.
    const answers = await Promise.all(
      [second, first].map((instance) =>
        send<{ user: { uid: string } }>(instance, 'POST', '/api/auth/passkey', {
          origin: PUBLIC_URL,
          json: { flow, response },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401]);
    const signedIn = answers.find((answer) => answer.status === 200);
    expect(signedIn?.body.user.uid).toBe(team.ada.user.uid);
    expect(await sessionUserOf(first, signedIn?.cookie ?? '')).toBe(team.ada.user.uid);

    const fresh = await signInOptions(second, PUBLIC_URL);
    const onFirst = await send(first, 'POST', '/api/auth/passkey', {
      origin: PUBLIC_URL,
      json: { flow: fresh.flow, response: authenticator.assert(fresh.options, PUBLIC_URL) },
    });
    expect(onFirst.status).toBe(200);
  });
});
