import { expect, it } from 'vitest';
import { messages, PASSWORD_RESET_EMAILS_PER_HOUR } from '../../common';
import { DojoError } from '../../sdk';
import { newClient } from '../../../test/support/clients';
import { uniqueEmail } from '../../../test/support/fixtures';
import { useMailingTeam } from '../../../test/support/test-team';

/** Email needs PUBLIC_URL; its path is kept in every emailed link. */
const PUBLIC_URL = 'https://dojo.example/team';

const team = useMailingTeam(
  { user: 'Forgetful' },
  { smtpFrom: 'Dojo <dojo@team.test>', publicUrl: PUBLIC_URL },
);

it("'Forgot password?' emails a one-time link through the SMTP server, and answers the same for unknown addresses", async () => {
  const anonymous = newClient(team.server.url);
  expect((await anonymous.access.options()).passwordResetByEmail).toBe(true);

  const unknownAddress = uniqueEmail('nobody');
  expect(await anonymous.access.requestPasswordReset(unknownAddress)).toBe(messages.resetEmailSent);
  expect(await anonymous.access.requestPasswordReset(team.user.email.toUpperCase())).toBe(
    messages.resetEmailSent,
  );

  const mail = await team.inbox.messageTo(team.user.email);
  expect(mail.from?.text).toContain('dojo@team.test');
  expect(mail.subject).toBe('Set a new password for The Dojo');
  const link = /\S+\/reset-password\?token=[\w-]+/.exec(mail.text ?? '')?.[0];
  expect(link, mail.text).toBeDefined();
  const url = new URL(link ?? '');
  expect(`${url.origin}${url.pathname}`).toBe(`${PUBLIC_URL}/reset-password`);
  // Only the address with an account got mail.
  expect(team.inbox.messages.flatMap((message) => [message.to ?? []].flat().map((to) => to.text))).toEqual([
    team.user.email,
  ]);

  const token = url.searchParams.get('token') ?? '';
  await anonymous.access.resetPassword({ token, password: 'a fresh new secret' });
  const signedIn = await newClient(team.server.url).auth.logIn({
    email: team.user.email,
    password: 'a fresh new secret',
  });
  expect(signedIn.uid).toBe(team.user.user.uid);
});

it('limits reset emails per address', async () => {
  const anonymous = newClient(team.server.url);
  const address = uniqueEmail('flooded');
  for (let sent = 0; sent < PASSWORD_RESET_EMAILS_PER_HOUR; sent += 1) {
    await anonymous.access.requestPasswordReset(address);
  }
  try {
    await anonymous.access.requestPasswordReset(address);
    expect.unreachable('the request over the limit should fail');
  } catch (error) {
    expect(error).toBeInstanceOf(DojoError);
    expect([(error as DojoError).status, (error as DojoError).message]).toEqual([
      429,
      messages.tooManyResetEmails,
    ]);
  }
});
