import { describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../common';
import { PASSKEYS_PER_MEMBER, passkeyMessages, type Passkey, type PasskeyList } from '../../common/passkeys';
import { ssoRequiredMessage } from '../../common/single-sign-on';
import type { SignedInClient } from '../../../test/support/clients';
import {
  addPasskey,
  cookieOf,
  messageOf,
  send,
  sessionUserOf,
  signInOptions,
  signInWith,
  type Ceremony,
} from '../../../test/support/passkey-ceremonies';
import {
  SoftwareAuthenticator,
  type CreationOptions,
  type RequestOptions,
} from '../../../test/support/software-authenticator';
import { openServerDatabase } from '../../../test/support/test-database';
import type { TestServer } from '../../../test/support/test-server';
import { useTestTeam } from '../../../test/support/test-team';

const PUBLIC_URL = 'https://dojo.example';

async function expireFlows(server: TestServer): Promise<void> {
  const database = await openServerDatabase(server);
  try {
    await database.db
      .updateTable('sign_in_flows')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('kind', 'in', ['passkey-registration', 'passkey-sign-in'])
      .execute();
  } finally {
    await database.close();
  }
}

describe('passkeys with PUBLIC_URL', () => {
  const team = useTestTeam(
    { ada: 'Ada', bob: 'Bob', carol: 'Carol', dan: 'Dan' },
    { configOverrides: { publicUrl: PUBLIC_URL } },
  );
  const ada = new SoftwareAuthenticator();

  it('offers a discoverable credential for the public host name, excluding the passkeys already added', async () => {
    const first = await send<Ceremony<Record<string, unknown>>>(
      team.server,
      'POST',
      '/api/account/passkeys/options',
      {
        cookie: cookieOf(team.ada),
        origin: PUBLIC_URL,
      },
    );
    expect(first.status).toBe(200);
    expect(first.body.flow).toMatch(/^[\w-]{40,}$/);
    expect(first.body.options).toMatchObject({
      rp: { id: 'dojo.example', name: 'The Dojo' },
      user: { name: team.ada.email, displayName: 'Ada' },
      attestation: 'none',
      authenticatorSelection: {
        residentKey: 'required',
        requireResidentKey: true,
        userVerification: 'preferred',
      },
      excludeCredentials: [],
    });

    const added = await addPasskey(team.server, team.ada, ada, PUBLIC_URL, '  Work laptop  ');
    expect(added).toMatchObject({ name: 'Work laptop', lastUsedAt: null });
    const again = await send<Ceremony<{ excludeCredentials: { id: string }[] }>>(
      team.server,
      'POST',
      '/api/account/passkeys/options',
      { cookie: cookieOf(team.ada), origin: PUBLIC_URL },
    );
    expect(again.body.options.excludeCredentials.map((credential) => credential.id)).toEqual([added.id]);

    const list = await send<PasskeyList>(team.server, 'GET', '/api/account/passkeys', {
      cookie: cookieOf(team.ada),
    });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ passkeys: [added], max: PASSKEYS_PER_MEMBER });
  });

  it('signs in with the passkey alone, on a new session, and records its use', async () => {
    const { flow, options } = await signInOptions(team.server, PUBLIC_URL);
    // Discoverable: no credentials named, so nothing about the team's accounts is given away.
    expect(options).toMatchObject({ rpId: 'dojo.example', userVerification: 'required' });
    expect((options.allowCredentials ?? []).length).toBe(0);
    const signedIn = await send<{ user: { uid: string }; idToken: string }>(
      team.server,
      'POST',
      '/api/auth/passkey',
      {
        origin: PUBLIC_URL,
        json: { flow, response: ada.assert(options, PUBLIC_URL) },
      },
    );
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body.user.uid).toBe(team.ada.user.uid);
    expect(signedIn.body.idToken).toEqual(expect.any(String));
    expect(signedIn.cookie).toBeDefined();
    expect(await sessionUserOf(team.server, signedIn.cookie ?? '')).toBe(team.ada.user.uid);

    const list = await send<PasskeyList>(team.server, 'GET', '/api/account/passkeys', {
      cookie: cookieOf(team.ada),
    });
    expect(list.body.passkeys[0]?.lastUsedAt).toEqual(expect.any(String));
  });

  it('answers each challenge once: a replayed answer, an unknown flow and an expired one are refused', async () => {
    const { flow, options } = await signInOptions(team.server, PUBLIC_URL);
    const response = ada.assert(options, PUBLIC_URL);
    const first = await send(team.server, 'POST', '/api/auth/passkey', {
      origin: PUBLIC_URL,
      json: { flow, response },
    });
    expect(first.status).toBe(200);
    const replayed = await send(team.server, 'POST', '/api/auth/passkey', {
      origin: PUBLIC_URL,
      json: { flow, response },
    });
    expect(replayed.status).toBe(401);
    expect(messageOf(replayed)).toBe(passkeyMessages.flowExpired);

    // The same answer under a new challenge: the signature is over the old one.
    const fresh = await signInOptions(team.server, PUBLIC_URL);
    const otherChallenge = await send(team.server, 'POST', '/api/auth/passkey', {
      origin: PUBLIC_URL,
      json: { flow: fresh.flow, response },
    });
    expect(otherChallenge.status).toBe(401);
    expect(messageOf(otherChallenge)).toBe(passkeyMessages.notVerified);

    const unknown = await send(team.server, 'POST', '/api/auth/passkey', {
      origin: PUBLIC_URL,
      json: { flow: 'no-such-flow', response },
    });
    expect(unknown.status).toBe(401);

    const late = await signInOptions(team.server, PUBLIC_URL);
    await expireFlows(team.server);
    const expired = await send(team.server, 'POST', '/api/auth/passkey', {
      origin: PUBLIC_URL,
      json: { flow: late.flow, response: ada.assert(late.options, PUBLIC_URL) },
    });
    expect(expired.status).toBe(401);
    expect(messageOf(expired)).toBe(passkeyMessages.flowExpired);
  });

  it('refuses a counter that went backwards, and an answer signed for another site', async () => {
    const backwards = await signInWith(team.server, ada, PUBLIC_URL, { counter: 1 });
    expect(backwards.status).toBe(401);
    expect(backwards.cookie).toBeUndefined();

    // A phishing page's answer: the browser wrote its own origin into the signed client data.
    const { flow, options } = await signInOptions(team.server, PUBLIC_URL);
    const phished = await send(team.server, 'POST', '/api/auth/passkey', {
      origin: PUBLIC_URL,
      json: { flow, response: ada.assert(options, 'https://dojo.example.evil.test') },
    });
    expect(phished.status).toBe(401);

    // The authenticator is still good once it counts on from where the server saw it.
    const onwards = await signInWith(team.server, ada, PUBLIC_URL, { counter: 1000 });
    expect(onwards.status).toBe(200);
  });

  it('refuses bad input with the field and its message, and changes nothing', async () => {
    const cookie = cookieOf(team.bob);
    const started = await send<Ceremony<CreationOptions>>(
      team.server,
      'POST',
      '/api/account/passkeys/options',
      {
        cookie,
        origin: PUBLIC_URL,
      },
    );
    const response = new SoftwareAuthenticator().register(started.body.options, PUBLIC_URL);
    const unnamed = await send(team.server, 'POST', '/api/account/passkeys', {
      cookie,
      origin: PUBLIC_URL,
      json: { flow: started.body.flow, name: '   ', response },
    });
    expect(unnamed.status).toBe(400);
    expect((unnamed.body as ErrorBody).error.fields).toEqual({ name: passkeyMessages.nameRequired });
    const tooLong = await send(team.server, 'POST', '/api/account/passkeys', {
      cookie,
      origin: PUBLIC_URL,
      json: { flow: started.body.flow, name: 'x'.repeat(65), response },
    });
    expect((tooLong.body as ErrorBody).error.fields).toEqual({ name: passkeyMessages.nameTooLong });
    const noAnswer = await send(team.server, 'POST', '/api/account/passkeys', {
      cookie,
      origin: PUBLIC_URL,
      json: { flow: started.body.flow, name: 'Key', response: 'not a credential' },
    });
    expect(noAnswer.status).toBe(400);
    expect(Object.keys((noAnswer.body as ErrorBody).error.fields ?? {})).toEqual(['response']);
    // A made-up attestation does not verify.
    const forged = await send(team.server, 'POST', '/api/account/passkeys', {
      cookie,
      origin: PUBLIC_URL,
      json: {
        flow: started.body.flow,
        name: 'Key',
        response: { ...response, response: { ...(response.response as object), attestationObject: 'AAAA' } },
      },
    });
    expect(forged.status).toBe(400);
    expect(messageOf(forged)).toBe(passkeyMessages.notVerified);
    const list = await send<PasskeyList>(team.server, 'GET', '/api/account/passkeys', { cookie });
    expect(list.body.passkeys).toEqual([]);
  });

  it("lets only its owner's browser see, rename and remove a passkey", async () => {
    const bobKey = new SoftwareAuthenticator();
    const passkey = await addPasskey(team.server, team.bob, bobKey, PUBLIC_URL, 'Phone');
    const path = `/api/account/passkeys/${encodeURIComponent(passkey.id)}`;

    // Another member finds no such passkey among theirs, and theirs is all they see.
    const othersList = await send<PasskeyList>(team.server, 'GET', '/api/account/passkeys', {
      cookie: cookieOf(team.carol),
    });
    expect(othersList.body.passkeys).toEqual([]);
    const othersRename = await send(team.server, 'PATCH', path, {
      cookie: cookieOf(team.carol),
      origin: PUBLIC_URL,
      json: { name: 'Mine now' },
    });
    expect(othersRename.status).toBe(404);
    const othersRemove = await send(team.server, 'DELETE', path, {
      cookie: cookieOf(team.carol),
      origin: PUBLIC_URL,
    });
    expect(othersRemove.status).toBe(404);

    // The owner's id token (a bearer credential, as a script holds) may not manage passkeys; nobody is 401.
    const idToken = await team.bob.client.auth.getIdToken();
    const byToken = await send(team.server, 'GET', '/api/account/passkeys', {
      headers: { authorization: `Bearer ${idToken}` },
    });
    expect(byToken.status).toBe(403);
    expect(messageOf(byToken)).toBe(passkeyMessages.browserSessionOnly);
    const removeByToken = await send(team.server, 'DELETE', path, {
      headers: { authorization: `Bearer ${idToken}` },
    });
    expect(removeByToken.status).toBe(403);
    // Nor may a personal API token, even one that may write.
    const created = await send<{ secret: string }>(team.server, 'POST', '/api/account/api-tokens', {
      cookie: cookieOf(team.bob),
      origin: PUBLIC_URL,
      json: { name: 'Script', scope: 'write', expiresInDays: 7 },
    });
    expect(created.status).toBe(201);
    const apiToken = { authorization: `Bearer ${created.body.secret}` };
    expect((await send(team.server, 'GET', '/api/account/passkeys', { headers: apiToken })).status).toBe(403);
    expect((await send(team.server, 'DELETE', path, { headers: apiToken })).status).toBe(403);
    expect(
      (await send(team.server, 'POST', '/api/account/passkeys/options', { headers: apiToken })).status,
    ).toBe(403);
    expect((await send(team.server, 'GET', '/api/account/passkeys')).status).toBe(401);

    const blank = await send(team.server, 'PATCH', path, {
      cookie: cookieOf(team.bob),
      origin: PUBLIC_URL,
      json: { name: '' },
    });
    expect(blank.status).toBe(400);
    const renamed = await send<{ passkey: Passkey }>(team.server, 'PATCH', path, {
      cookie: cookieOf(team.bob),
      origin: PUBLIC_URL,
      json: { name: 'Old phone' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.passkey).toMatchObject({ id: passkey.id, name: 'Old phone' });

    expect((await signInWith(team.server, bobKey, PUBLIC_URL)).status).toBe(200);
    const removed = await send(team.server, 'DELETE', path, {
      cookie: cookieOf(team.bob),
      origin: PUBLIC_URL,
    });
    expect(removed.status).toBe(204);
    const afterRemoval = await signInWith(team.server, bobKey, PUBLIC_URL);
    expect(afterRemoval.status).toBe(401);
    expect(messageOf(afterRemoval)).toBe(passkeyMessages.unknownPasskey);
    expect(
      (await send(team.server, 'DELETE', path, { cookie: cookieOf(team.bob), origin: PUBLIC_URL })).status,
    ).toBe(404);
  });

  it('caps the passkeys a member may hold', async () => {
    const database = await openServerDatabase(team.server);
    try {
      await database.db
        .insertInto('passkeys')
        .values(
          Array.from({ length: PASSKEYS_PER_MEMBER - 1 }, (_, index) => ({
            id: `cap-${team.carol.user.uid}-${index}`,
            user_id: team.carol.user.uid,
            name: `Key ${index}`,
            public_key: 'AAAA',
            counter: 0,
            transports: '[]',
            created_at: new Date().toISOString(),
            last_used_at: null,
          })),
        )
        .execute();
    } finally {
      await database.close();
    }
    await addPasskey(team.server, team.carol, new SoftwareAuthenticator(), PUBLIC_URL, 'The last one');
    const full = await send(team.server, 'POST', '/api/account/passkeys/options', {
      cookie: cookieOf(team.carol),
      origin: PUBLIC_URL,
    });
    expect(full.status).toBe(409);
    expect(messageOf(full)).toBe(passkeyMessages.tooMany);
  });

  it("refuses a deactivated member's passkey", async () => {
    const danKey = new SoftwareAuthenticator();
    await addPasskey(team.server, team.dan, danKey, PUBLIC_URL);
    const deactivated = await send(
      team.server,
      'POST',
      `/api/admin/members/${team.dan.user.uid}/deactivate`,
      {
        cookie: cookieOf(team.ada),
        origin: PUBLIC_URL,
      },
    );
    expect(deactivated.status).toBe(200);
    const refused = await signInWith(team.server, danKey, PUBLIC_URL);
    expect(refused.status).toBe(401);
    expect(refused.cookie).toBeUndefined();
  });
});

describe('passkeys without PUBLIC_URL', () => {
  const team = useTestTeam({ eve: 'Eve' });
  const eve = new SoftwareAuthenticator();
  const originOf = (server: TestServer) => server.url;

  it("takes the request's host for the site, and its Origin only when that is the same host", async () => {
    const origin = originOf(team.server);
    const host = new URL(origin).host;
    const started = await send<Ceremony<CreationOptions>>(
      team.server,
      'POST',
      '/api/account/passkeys/options',
      {
        cookie: cookieOf(team.eve),
        origin,
      },
    );
    expect(started.status).toBe(200);
    expect(started.body.options.rp.id).toBe('127.0.0.1');

    // Without an Origin, or with one for another host, the server cannot tell the site: refused.
    const noOrigin = await send(team.server, 'POST', '/api/auth/passkey/options');
    expect(noOrigin.status).toBe(403);
    expect(messageOf(noOrigin)).toBe(passkeyMessages.wrongSite);
    const forgedHost = await send(team.server, 'POST', '/api/auth/passkey/options', {
      origin: 'https://evil.test',
      host: host,
    });
    expect(forgedHost.status).toBe(403);

    await addPasskey(team.server, team.eve, eve, origin, 'Laptop');
    expect((await signInWith(team.server, eve, origin)).status).toBe(200);
  });

  it('never finishes under another host name a ceremony begun under this one', async () => {
    const origin = originOf(team.server);
    const { flow, options } = await signInOptions(team.server, origin);
    const response = eve.assert(options, origin);
    // An attacker's client sends the answer with a Host and Origin of its choosing.
    const elsewhere = await send(team.server, 'POST', '/api/auth/passkey', {
      origin: 'http://evil.test',
      host: 'evil.test',
      json: { flow, response },
    });
    expect(elsewhere.status).toBe(403);
    expect(messageOf(elsewhere)).toBe(passkeyMessages.wrongSite);

    // A ceremony begun under the attacker's Host: the passkey, made for 127.0.0.1, does not verify there.
    const foreign = await send<Ceremony<RequestOptions>>(team.server, 'POST', '/api/auth/passkey/options', {
      origin: 'http://evil.test',
      host: 'evil.test',
    });
    expect(foreign.body.options.rpId).toBe('evil.test');
    const replanted = await send(team.server, 'POST', '/api/auth/passkey', {
      origin: 'http://evil.test',
      host: 'evil.test',
      json: {
        flow: foreign.body.flow,
        response: eve.assert({ ...foreign.body.options, rpId: '127.0.0.1' }, origin),
      },
    });
    expect(replanted.status).toBe(401);
    expect(replanted.cookie).toBeUndefined();
  });
});

describe('a passkey as the second step after a password', () => {
  const team = useTestTeam({ fay: 'Fay', gus: 'Gus' }, { configOverrides: { publicUrl: PUBLIC_URL } });
  // A security key without a PIN: enough after a password, not enough alone.
  const fayKey = new SoftwareAuthenticator({ userVerified: false });
  const gusKey = new SoftwareAuthenticator();

  /** A password login that the account's passkey turns into a second step: its flow. */
  async function passwordLogin(member: SignedInClient): Promise<{ flow: string; methods: string[] }> {
    const login = await send<{ secondStep: { flow: string; methods: string[] } }>(
      team.server,
      'POST',
      '/api/auth/login',
      {
        origin: PUBLIC_URL,
        json: { email: member.email, password: member.password },
      },
    );
    expect(login.status).toBe(200);
    expect(login.cookie).toBeUndefined();
    return login.body.secondStep;
  }

  it("finishes a password login with one of the member's passkeys, once", async () => {
    await addPasskey(team.server, team.fay, fayKey, PUBLIC_URL, 'Security key');
    // Without user verification, this key does not sign in alone.
    const alone = await signInWith(team.server, fayKey, PUBLIC_URL);
    expect(alone.status).toBe(401);

    const { flow, methods } = await passwordLogin(team.fay);
    expect(methods).toContain('passkey');
    const started = await send<Ceremony<RequestOptions>>(
      team.server,
      'POST',
      '/api/auth/second-step/passkey/options',
      {
        origin: PUBLIC_URL,
        json: { flow },
      },
    );
    expect(started.status).toBe(200);
    expect(started.body.options).toMatchObject({ rpId: 'dojo.example', userVerification: 'preferred' });
    const passkeys = await send<PasskeyList>(team.server, 'GET', '/api/account/passkeys', {
      cookie: cookieOf(team.fay),
    });
    expect(started.body.options.allowCredentials?.map((credential) => credential.id)).toEqual(
      passkeys.body.passkeys.map((passkey) => passkey.id),
    );

    const response = fayKey.assert(started.body.options, PUBLIC_URL);
    const signedIn = await send<{ user: { uid: string } }>(
      team.server,
      'POST',
      '/api/auth/second-step/passkey',
      {
        origin: PUBLIC_URL,
        json: { flow, response },
      },
    );
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body.user.uid).toBe(team.fay.user.uid);
    expect(await sessionUserOf(team.server, signedIn.cookie ?? '')).toBe(team.fay.user.uid);

    // The password's flow is used up with it.
    const again = await send(team.server, 'POST', '/api/auth/second-step/passkey', {
      origin: PUBLIC_URL,
      json: { flow, response },
    });
    expect(again.status).toBe(401);
    const moreOptions = await send(team.server, 'POST', '/api/auth/second-step/passkey/options', {
      origin: PUBLIC_URL,
      json: { flow },
    });
    expect(moreOptions.status).toBe(401);
  });

  it("refuses another member's passkey, and a flow that is no password login's", async () => {
    await addPasskey(team.server, team.gus, gusKey, PUBLIC_URL, 'Phone');
    const { flow } = await passwordLogin(team.fay);
    const started = await send<Ceremony<RequestOptions>>(
      team.server,
      'POST',
      '/api/auth/second-step/passkey/options',
      {
        origin: PUBLIC_URL,
        json: { flow },
      },
    );
    // Gus's passkey answers Fay's challenge (his browser ignores the list): it is not hers.
    const response = gusKey.assert({ ...started.body.options, allowCredentials: [] }, PUBLIC_URL);
    const refused = await send(team.server, 'POST', '/api/auth/second-step/passkey', {
      origin: PUBLIC_URL,
      json: { flow, response },
    });
    expect(refused.status).toBe(401);
    expect(messageOf(refused)).toBe(passkeyMessages.notForThisAccount);
    expect(refused.cookie).toBeUndefined();

    // A passkey sign-in's own flow is not a second step's.
    const own = await signInOptions(team.server, PUBLIC_URL);
    const notAStep = await send(team.server, 'POST', '/api/auth/second-step/passkey/options', {
      origin: PUBLIC_URL,
      json: { flow: own.flow },
    });
    expect(notAStep.status).toBe(401);
  });
});

describe('passkeys while the team requires single sign-on', () => {
  // A provider is configured (its issuer is never contacted here): only then may single sign-on be required.
  const provider = {
    id: 'corp',
    name: 'Corp',
    issuer: 'https://login.corp.invalid',
    clientId: 'dojo',
    clientSecret: 'secret',
    adminGroup: undefined,
    groupsClaim: 'groups',
  };
  const team = useTestTeam(
    { hal: 'Hal', ivy: 'Ivy' },
    { configOverrides: { publicUrl: PUBLIC_URL, oidcProviders: [provider] } },
  );

  it('signs in only the admins with a passkey alone, as with a password', async () => {
    const halKey = new SoftwareAuthenticator();
    const ivyKey = new SoftwareAuthenticator();
    await addPasskey(team.server, team.hal, halKey, PUBLIC_URL);
    await addPasskey(team.server, team.ivy, ivyKey, PUBLIC_URL);
    const required = await send(team.server, 'PUT', '/api/admin/sso-policy', {
      cookie: cookieOf(team.hal),
      origin: PUBLIC_URL,
      json: { required: true },
    });
    expect(required.status).toBe(200);

    const member = await signInWith(team.server, ivyKey, PUBLIC_URL);
    expect(member.status).toBe(403);
    expect(messageOf(member)).toBe(ssoRequiredMessage(['Corp']));
    expect(member.cookie).toBeUndefined();
    const admin = await signInWith(team.server, halKey, PUBLIC_URL);
    expect(admin.status).toBe(200);
  });
});
