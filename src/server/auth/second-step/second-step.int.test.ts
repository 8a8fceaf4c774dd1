import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { RECOVERY_CODE_COUNT, secondStepMessages } from '../../../common/second-step';
import { errorOf, newClient, signUpClient, type SignedInClient } from '../../../../test/support/clients';
import { openServerDatabase } from '../../../../test/support/test-database';
import { useTestTeam } from '../../../../test/support/test-team';
import type { TestServer } from '../../../../test/support/test-server';
import { totpCodeOf as codeOf, twoStepOf } from '../../../../test/support/second-step';

/** Turns TOTP on in settings with the code of this step: the secret and the recovery codes. */
async function turnOnTotp(member: SignedInClient) {
  const twoStep = twoStepOf(member.client);
  const { secret } = await twoStep.startTotp();
  const { recoveryCodes } = await twoStep.confirmTotp(codeOf(secret));
  return { twoStep, secret, recoveryCodes };
}

/** A fresh browser that gives the password: the login's answer, and the client (no session yet if a step is due). */
async function logInWithPassword(server: TestServer, member: SignedInClient) {
  const client = newClient(server.url);
  await client.auth.whenReady();
  const result = await client.auth.beginLogIn({ email: member.email, password: member.password });
  return { client, result };
}

async function secondStepFlow(server: TestServer, member: SignedInClient) {
  const { client, result } = await logInWithPassword(server, member);
  if (!('secondStep' in result)) throw new Error('expected the login to ask for a second step');
  return { client, ...result.secondStep };
}

async function sessionUserOf(client: ReturnType<typeof newClient>): Promise<unknown> {
  return (await client.transport.request<{ user: unknown }>('GET', '/api/auth/session')).user;
}

describe('TOTP and recovery codes', () => {
  const team = useTestTeam({ owner: 'Owner' });

  it('turns on only after a right code, then shows ten recovery codes once', async () => {
    const member = await signUpClient(team.server.url, 'Enrols');
    const twoStep = twoStepOf(member.client);
    expect(await twoStep.status()).toMatchObject({ totp: false, recoveryCodesLeft: 0, required: false });

    const enrolment = await twoStep.startTotp();
    expect(enrolment.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrolment.otpauthUrl).toContain(`secret=${enrolment.secret}`);
    expect(enrolment.qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);

    const wrong = await errorOf(() => twoStep.confirmTotp(codeOf(enrolment.secret, 5)));
    expect(wrong).toMatchObject({ status: 400, fields: { code: secondStepMessages.codeWrong } });
    expect((await twoStep.status()).totp).toBe(false);
    // Still off: the password alone signs in.
    expect('user' in (await logInWithPassword(team.server, member)).result).toBe(true);

    const { recoveryCodes } = await twoStep.confirmTotp(codeOf(enrolment.secret));
    expect(recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(recoveryCodes).size).toBe(RECOVERY_CODE_COUNT);
    expect(await twoStep.status()).toMatchObject({ totp: true, recoveryCodesLeft: RECOVERY_CODE_COUNT });
    expect(await errorOf(() => twoStep.startTotp())).toMatchObject({ status: 409 });
  });

  it('asks for a code after the password, signs in with it, and takes each code once', async () => {
    const member = await signUpClient(team.server.url, 'Uses a code');
    const { secret } = await turnOnTotp(member);

    const { client, flow, methods, enrol } = await secondStepFlow(team.server, member);
    expect(methods).toEqual(['totp', 'recovery']);
    expect(enrol).toBe(false);
    expect(await sessionUserOf(client)).toBeNull();
    expect(
      await errorOf(() => client.auth.logIn({ email: member.email, password: member.password })),
    ).toMatchObject({ status: 403 });

    // The enrolment used this step's code: the app's next one.
    const code = codeOf(secret, 1);
    const user = await client.auth.completeSecondStep({ flow, code });
    expect(user.uid).toBe(member.user.uid);
    expect(await sessionUserOf(client)).toMatchObject({ uid: member.user.uid });
    // The flow is used up.
    expect(await errorOf(() => client.auth.completeSecondStep({ flow, code }))).toMatchObject({
      code: 'unauthenticated',
      message: secondStepMessages.flowExpired,
    });

    const again = await secondStepFlow(team.server, member);
    expect(
      await errorOf(() => again.client.auth.completeSecondStep({ flow: again.flow, code })),
    ).toMatchObject({
      status: 401,
      code: 'wrong-credentials',
    });
    expect(await sessionUserOf(again.client)).toBeNull();
  });

  it('takes a recovery code once, in any case and without its dash', async () => {
    const member = await signUpClient(team.server.url, 'Lost phone');
    const { twoStep, recoveryCodes } = await turnOnTotp(member);
    const [first = '', second = ''] = recoveryCodes;

    const one = await secondStepFlow(team.server, member);
    expect((await one.client.auth.completeSecondStep({ flow: one.flow, code: first })).uid).toBe(
      member.user.uid,
    );
    const two = await secondStepFlow(team.server, member);
    expect(
      await errorOf(() => two.client.auth.completeSecondStep({ flow: two.flow, code: first })),
    ).toMatchObject({
      code: 'wrong-credentials',
    });
    const typed = second.toUpperCase().replace('-', ' ');
    expect((await two.client.auth.completeSecondStep({ flow: two.flow, code: typed })).uid).toBe(
      member.user.uid,
    );
    expect((await twoStep.status()).recoveryCodesLeft).toBe(RECOVERY_CODE_COUNT - 2);
  });

  it('counts wrong codes against the same per-account limit as wrong passwords, and ends a flow after 5', async () => {
    const member = await signUpClient(team.server.url, 'Guessed at');
    const { recoveryCodes } = await turnOnTotp(member);
    const guess = () => ({ email: member.email, password: 'not the password' });
    for (let index = 0; index < 4; index += 1) {
      await errorOf(() => newClient(team.server.url).auth.beginLogIn(guess()));
    }

    const first = await secondStepFlow(team.server, member);
    for (let index = 1; index <= 5; index += 1) {
      const error = await errorOf(() =>
        first.client.auth.completeSecondStep({ flow: first.flow, code: '000000' }),
      );
      if (index < 5) expect(error).toMatchObject({ code: 'wrong-credentials' });
      else
        expect(error).toMatchObject({
          code: 'unauthenticated',
          message: secondStepMessages.flowTooManyTries,
        });
    }
    // The flow is gone even for a right code.
    expect(
      await errorOf(() =>
        first.client.auth.completeSecondStep({ flow: first.flow, code: recoveryCodes[0] ?? '' }),
      ),
    ).toMatchObject({ code: 'unauthenticated' });

    // 4 wrong passwords and 5 wrong codes: one more wrong code reaches the limit (10), then even a right one is refused.
    const second = await secondStepFlow(team.server, member);
    await errorOf(() => second.client.auth.completeSecondStep({ flow: second.flow, code: 'wrong-code' }));
    const limited = await errorOf(() =>
      second.client.auth.completeSecondStep({ flow: second.flow, code: recoveryCodes[0] ?? '' }),
    );
    expect(limited).toMatchObject({ status: 429, code: 'too-many-requests' });
    expect(await sessionUserOf(second.client)).toBeNull();
  });

  it('refuses an unknown or expired flow with a message to log in again', async () => {
    const member = await signUpClient(team.server.url, 'Slow typist');
    const { secret } = await turnOnTotp(member);
    const stranger = newClient(team.server.url);
    expect(
      await errorOf(() => stranger.auth.completeSecondStep({ flow: 'no-such-flow', code: '123456' })),
    ).toMatchObject({ status: 401, message: secondStepMessages.flowExpired });

    const { client, flow } = await secondStepFlow(team.server, member);
    const database = await openServerDatabase(team.server);
    try {
      const past = new Date(Date.now() - 1000).toISOString();
      await sql`update sign_in_flows set expires_at = ${past} where user_id = ${member.user.uid}`.execute(
        database.db,
      );
    } finally {
      await database.close();
    }
    expect(
      await errorOf(() => client.auth.completeSecondStep({ flow, code: codeOf(secret, 1) })),
    ).toMatchObject({
      status: 401,
      message: secondStepMessages.flowExpired,
    });
  });

  it('replaces recovery codes and turns off only with the password or a current code', async () => {
    const member = await signUpClient(team.server.url, 'Tidies up');
    const { twoStep, recoveryCodes } = await turnOnTotp(member);

    expect(await errorOf(() => twoStep.regenerateRecoveryCodes({}))).toMatchObject({ status: 400 });
    expect(await errorOf(() => twoStep.regenerateRecoveryCodes({ password: 'not it' }))).toMatchObject({
      status: 400,
      fields: { password: secondStepMessages.proofWrong },
    });
    const fresh = (await twoStep.regenerateRecoveryCodes({ password: member.password })).recoveryCodes;
    expect(fresh).toHaveLength(RECOVERY_CODE_COUNT);

    const old = await secondStepFlow(team.server, member);
    expect(
      await errorOf(() =>
        old.client.auth.completeSecondStep({ flow: old.flow, code: recoveryCodes[0] ?? '' }),
      ),
    ).toMatchObject({ code: 'wrong-credentials' });
    expect((await old.client.auth.completeSecondStep({ flow: old.flow, code: fresh[0] ?? '' })).uid).toBe(
      member.user.uid,
    );

    expect(await errorOf(() => twoStep.turnOff({ code: '000000' }))).toMatchObject({ status: 400 });
    expect((await twoStep.status()).totp).toBe(true);
    await twoStep.turnOff({ code: fresh[1] ?? '' });
    expect(await twoStep.status()).toMatchObject({ totp: false, recoveryCodesLeft: 0 });
    expect(await errorOf(() => twoStep.turnOff({ password: member.password }))).toMatchObject({
      status: 409,
    });
    expect('user' in (await logInWithPassword(team.server, member)).result).toBe(true);
  });

  it('asks for the second step of an account with a passkey', async () => {
    const member = await signUpClient(team.server.url, 'Has a key');
    const database = await openServerDatabase(team.server);
    try {
      await database.db
        .insertInto('passkeys')
        .values({
          id: `credential-${member.user.uid}`,
          user_id: member.user.uid,
          name: 'Laptop',
          public_key: 'AQID',
          counter: 0,
          transports: '[]',
          created_at: new Date().toISOString(),
        })
        .execute();
    } finally {
      await database.close();
    }
    const { client, flow, methods, enrol } = await secondStepFlow(team.server, member);
    expect(methods).toEqual(['passkey']);
    expect(enrol).toBe(false);
    expect(await errorOf(() => client.auth.completeSecondStep({ flow, code: '123456' }))).toMatchObject({
      status: 403,
      message: secondStepMessages.passkeyOnly,
    });
  });
});

describe("the team's second-step policy", () => {
  const team = useTestTeam({ admin: 'Policy Admin', member: 'Policy Member' });
  const policyOf = (member: SignedInClient) => twoStepOf(member.client);

  it('is for admins to set', async () => {
    expect(await policyOf(team.admin).policy()).toBe('off');
    expect(await errorOf(() => policyOf(team.member).setPolicy('everyone'))).toMatchObject({ status: 403 });
    expect(await errorOf(() => policyOf(team.member).policy())).toMatchObject({ status: 403 });
    const invalid = await errorOf(() =>
      team.admin.client.transport.request('PUT', '/api/admin/second-step-policy', { policy: 'sometimes' }),
    );
    expect(invalid).toMatchObject({ status: 400 });
    expect(await policyOf(team.admin).policy()).toBe('off');
  });

  it('lets an admin turn off the TOTP of a member who lost the app and the codes', async () => {
    const member = await signUpClient(team.server.url, 'Lost everything');
    await turnOnTotp(member);
    expect(await errorOf(() => policyOf(team.member).resetMember(member.user.uid))).toMatchObject({
      status: 403,
    });
    expect(await errorOf(() => policyOf(team.admin).resetMember('no-such-member'))).toMatchObject({
      status: 404,
    });
    expect('secondStep' in (await logInWithPassword(team.server, member)).result).toBe(true);

    await policyOf(team.admin).resetMember(member.user.uid);
    expect('user' in (await logInWithPassword(team.server, member)).result).toBe(true);
    expect(await twoStepOf(member.client).status()).toMatchObject({ totp: false, recoveryCodesLeft: 0 });
  });

  it('for admins: an admin without a second step sets up TOTP within the login; members sign in as before', async () => {
    await policyOf(team.admin).setPolicy('admins');
    try {
      expect('user' in (await logInWithPassword(team.server, team.member)).result).toBe(true);

      const { client, flow, methods, enrol } = await secondStepFlow(team.server, team.admin);
      expect({ methods, enrol }).toEqual({ methods: [], enrol: true });
      expect(await errorOf(() => client.auth.completeSecondStep({ flow, code: '123456' }))).toMatchObject({
        status: 403,
      });
      const atLogin = twoStepOf(client);
      const { secret } = await atLogin.startTotpAtLogIn(flow);
      expect(
        await errorOf(() =>
          twoStepOf(client).confirmTotpAtLogIn(client.auth, { flow, code: codeOf(secret, 5) }),
        ),
      ).toMatchObject({
        code: 'wrong-credentials',
      });
      expect(await sessionUserOf(client)).toBeNull();

      const enrolled = await twoStepOf(client).confirmTotpAtLogIn(client.auth, {
        flow,
        code: codeOf(secret),
      });
      expect(enrolled.recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
      expect(client.auth.currentUser).toBeNull();
      expect(enrolled.signIn().uid).toBe(team.admin.user.uid);
      expect(await sessionUserOf(client)).toMatchObject({ uid: team.admin.user.uid });
      expect(await twoStepOf(client).status()).toMatchObject({
        totp: true,
        required: true,
      });

      // From now on the admin's login asks for a code like any TOTP account's.
      const next = await secondStepFlow(team.server, team.admin);
      expect({ methods: next.methods, enrol: next.enrol }).toEqual({
        methods: ['totp', 'recovery'],
        enrol: false,
      });
      expect(await errorOf(() => atLogin.startTotpAtLogIn(next.flow))).toMatchObject({ status: 403 });
    } finally {
      await policyOf(team.admin).setPolicy('off');
    }
  });

  it('for everyone: a member is walked through TOTP at login; turned off, the next login asks again', async () => {
    await policyOf(team.admin).setPolicy('everyone');
    try {
      const { client, flow, enrol } = await secondStepFlow(team.server, team.member);
      expect(enrol).toBe(true);
      const { secret } = await twoStepOf(client).startTotpAtLogIn(flow);
      const { signIn } = await twoStepOf(client).confirmTotpAtLogIn(client.auth, {
        flow,
        code: codeOf(secret),
      });
      expect(signIn().uid).toBe(team.member.user.uid);

      await twoStepOf(client).turnOff({ password: team.member.password });
      expect((await secondStepFlow(team.server, team.member)).enrol).toBe(true);
    } finally {
      await policyOf(team.admin).setPolicy('off');
    }
    expect('user' in (await logInWithPassword(team.server, team.member)).result).toBe(true);
  });
});
