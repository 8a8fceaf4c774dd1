import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_DELIVERIES_KEPT, WEBHOOK_EVENTS, webhookMessages } from '../../common/webhooks';
import { createProjectAs, errorOf, signUpClient } from '../../../test/support/clients';
import { pollUntil, WAIT_MS } from '../../../test/support/poll';
import { openServerDatabase } from '../../../test/support/test-database';
import { startTestServer } from '../../../test/support/test-server';
import { useTestTeam } from '../../../test/support/test-team';
import { signatureIsValid, WebhookReceiver, webhooksOf } from '../../../test/support/webhook-receiver';

/**
 * Outgoing webhooks (docs/decisions/077-webhook-delivery-guarantees.md) on one instance, on SQLite and on
 * PostgreSQL, to a real receiver on 127.0.0.1 (so the server runs with OUTBOUND_ALLOW_PRIVATE). The
 * two-instance guarantees are webhooks.pg.int.test.ts.
 */
const team = useTestTeam(
  { ada: 'Ada', bob: 'Bob' },
  {
    configOverrides: {
      outboundAllowPrivate: true,
      webhookPollMs: 100,
      webhookRetryBaseMs: 100,
      webhookDisableAfterFailures: 3,
      webhookListenersCacheMs: 0,
    },
  },
);
const receiver = new WebhookReceiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

let paths = 0;
/** An endpoint of its own per test: a fresh path on the receiver. */
async function addEndpoint(events: readonly (typeof WEBHOOK_EVENTS)[number][] = WEBHOOK_EVENTS) {
  paths += 1;
  const path = `/hook-${paths}`;
  const created = await webhooksOf(team.ada).create({ url: `${receiver.url}${path}`, events: [...events] });
  return { path, ...created };
}

const waitForAccepted = (path: string, count: number) =>
  pollUntil(
    () => receiver.accepted(path).length >= count,
    WAIT_MS,
    () => `${receiver.accepted(path).length} of ${count} deliveries accepted at ${path}`,
  );

describe('outgoing webhooks', () => {
  it('sends each event once, signed, in order per project, and only what committed', async () => {
    const { path, secret, endpoint } = await addEndpoint();
    expect(secret).toMatch(/^whsec_/);
    expect(endpoint).toMatchObject({ enabled: true, events: [...WEBHOOK_EVENTS], consecutiveFailures: 0 });
    const bob = team.bob;
    const project = await createProjectAs(bob, { name: 'Hooked' });
    const edited = await bob.client.projects.update(project.id, {
      name: 'Hooked, edited',
      details: project.details,
      dueDate: project.dueDate,
      category: project.category,
      assignedUserIds: project.assignedUserIds,
      version: project.version,
    });
    // A write that fails (a stale version) commits nothing, so it sends nothing.
    const stale = await errorOf(() =>
      bob.client.projects.update(project.id, { ...edited, name: 'Never sent', version: project.version }),
    );
    expect(stale.status).toBe(409);
    await bob.client.projects.addComment(project.id, { content: 'A comment for the hook' });
    await bob.client.projects.complete(project.id);
    await bob.client.projects.reopen(project.id);
    await bob.client.projects.complete(project.id);
    await bob.client.projects.deleteForGood(project.id);
    const newcomer = await signUpClient(team.server.url, 'Newcomer');

    const expected = [
      'project.created',
      'project.edited',
      'comment.added',
      'project.completed',
      'project.reopened',
      'project.completed',
      'project.deleted',
      'member.joined',
    ];
    await waitForAccepted(path, expected.length);
    const got = receiver.accepted(path);
    expect(got.map((entry) => entry.json.event)).toEqual(expected);
    expect(new Set(got.map((entry) => entry.json.id)).size).toBe(expected.length);
    for (const entry of got) {
      expect(signatureIsValid(secret, entry.headers['dojo-signature'], entry.body)).toBe(true);
      expect(signatureIsValid('not the secret at all', entry.headers['dojo-signature'], entry.body)).toBe(
        false,
      );
      expect(entry.headers['dojo-event']).toBe(entry.json.event);
      expect(entry.headers['content-type']).toBe('application/json');
    }
    expect(got.slice(0, 7).every((entry) => entry.json.data.project?.id === project.id)).toBe(true);
    expect(got[1]!.json).toMatchObject({
      actor: { id: bob.user.uid },
      data: { project: { name: 'Hooked, edited' } },
    });
    expect(got[7]!.json).toMatchObject({
      data: { member: { id: newcomer.user.uid, displayName: 'Newcomer' } },
    });
    expect(got.some((entry) => entry.body.includes('Never sent'))).toBe(false);
    newcomer.client.close();

    const deliveries = await webhooksOf(team.ada).deliveries(endpoint.id);
    expect(deliveries).toHaveLength(expected.length);
    expect(deliveries.every((delivery) => delivery.status === 'delivered' && delivery.attempts === 1)).toBe(
      true,
    );
    expect(deliveries[0]).toMatchObject({ responseStatus: 200, responseExcerpt: 'ok thanks' });
    expect(deliveries[0]!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('keeps the newest finished deliveries of an endpoint and removes the older ones as it sends', async () => {
    const { path, endpoint } = await addEndpoint(['comment.added']);
    const project = await createProjectAs(team.bob, {});
    const total = WEBHOOK_DELIVERIES_KEPT + 10;
    for (let start = 0; start < total; start += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          team.bob.client.projects.addComment(project.id, { content: `Comment ${start + index}` }),
        ),
      );
    }
    await waitForAccepted(path, total);
    const database = await openServerDatabase(team.server);
    const rowsOfEndpoint = async () =>
      (
        await database.db
          .selectFrom('webhook_deliveries')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('endpoint_id', '=', endpoint.id)
          .executeTakeFirstOrThrow()
      ).count;
    try {
      await pollUntil(
        async () => Number(await rowsOfEndpoint()) === WEBHOOK_DELIVERIES_KEPT,
        WAIT_MS,
        () => `the endpoint kept more than ${WEBHOOK_DELIVERIES_KEPT} finished deliveries`,
      );
    } finally {
      await database.close();
    }
    const kept = await webhooksOf(team.ada).deliveries(endpoint.id);
    expect(kept).toHaveLength(WEBHOOK_DELIVERIES_KEPT);
    // The newest ones are kept: the last accepted comment is among them, the first accepted is gone.
    const accepted = receiver.accepted(path).map((entry) => String(entry.headers['dojo-delivery']));
    const keptIds = kept.map((delivery) => delivery.id);
    expect(keptIds).toContain(accepted.at(-1));
    expect(keptIds).not.toContain(accepted[0]);
  });

  it('sends only the events an endpoint chose', async () => {
    const { path } = await addEndpoint(['comment.added']);
    const project = await createProjectAs(team.bob, {});
    await team.bob.client.projects.addComment(project.id, { content: 'Only this one' });
    await waitForAccepted(path, 1);
    const got = receiver.accepted(path);
    expect(got.map((entry) => entry.json.event)).toEqual(['comment.added']);
  });

  it('retries after the receiver fails, holding the later events of the queue back until then', async () => {
    const { path, endpoint } = await addEndpoint(['project.created', 'project.edited']);
    let failures = 0;
    receiver.answer = (request) => {
      if (request.path === path && request.json.event === 'project.created' && failures < 2) {
        failures += 1;
        return 500;
      }
      return 200;
    };
    try {
      const project = await createProjectAs(team.bob, { name: 'Flaky receiver' });
      await team.bob.client.projects.update(project.id, {
        name: 'Flaky receiver, edited',
        details: project.details,
        dueDate: project.dueDate,
        category: project.category,
        assignedUserIds: project.assignedUserIds,
        version: project.version,
      });
      await waitForAccepted(path, 2);
    } finally {
      receiver.answer = () => 200;
    }
    const all = receiver.received.filter((entry) => entry.path === path);
    expect(all.map((entry) => [entry.json.event, entry.status])).toEqual([
      ['project.created', 500],
      ['project.created', 500],
      ['project.created', 200],
      ['project.edited', 200],
    ]);
    // Every attempt of one delivery sends the same body.
    expect(new Set(all.slice(0, 3).map((entry) => entry.body)).size).toBe(1);
    const deliveries = await webhooksOf(team.ada).deliveries(endpoint.id);
    expect(deliveries.map((delivery) => [delivery.event, delivery.status, delivery.attempts])).toEqual([
      ['project.edited', 'delivered', 1],
      ['project.created', 'delivered', 3],
    ]);
    const [endpointNow] = (await webhooksOf(team.ada).list()).filter((entry) => entry.id === endpoint.id);
    expect(endpointNow?.consecutiveFailures).toBe(0);
  });

  it('disables an endpoint after repeated failures, with a notice; enabled again, it sends what waited', async () => {
    const { path, endpoint } = await addEndpoint(['project.created']);
    let down = true;
    receiver.answer = (request) => (request.path === path && down ? 503 : 200);
    try {
      const project = await createProjectAs(team.bob, { name: 'Receiver down' });
      await pollUntil(
        async () =>
          (await webhooksOf(team.ada).list()).some((entry) => entry.id === endpoint.id && !entry.enabled),
        WAIT_MS,
        () => 'the failing endpoint was not disabled',
      );
      const [disabled] = (await webhooksOf(team.ada).list()).filter((entry) => entry.id === endpoint.id);
      expect(disabled).toMatchObject({ enabled: false, consecutiveFailures: 3 });
      expect(disabled?.disabledReason).toContain('HTTP 503');
      expect(disabled?.disabledAt).toEqual(expect.any(String));
      const [pending] = await webhooksOf(team.ada).deliveries(endpoint.id);
      expect(pending).toMatchObject({ status: 'pending', attempts: 3, responseStatus: 503 });

      down = false;
      const enabled = await webhooksOf(team.ada).update(endpoint.id, { enabled: true });
      expect(enabled).toMatchObject({ enabled: true, consecutiveFailures: 0, disabledAt: null });
      await waitForAccepted(path, 1);
      expect(receiver.accepted(path)[0]!.json.data.project?.id).toBe(project.id);
    } finally {
      receiver.answer = () => 200;
    }
  });

  it('resends one delivery with the same body at the end of the queue', async () => {
    const { path, endpoint } = await addEndpoint(['project.created']);
    await createProjectAs(team.bob, { name: 'Sent twice on request' });
    await waitForAccepted(path, 1);
    const [delivery] = await webhooksOf(team.ada).deliveries(endpoint.id);
    const resent = await webhooksOf(team.ada).resend(endpoint.id, delivery!.id);
    expect(resent).toMatchObject({ event: 'project.created', attempts: 0 });
    expect(resent.id).not.toBe(delivery!.id);
    await waitForAccepted(path, 2);
    const [first, second] = receiver.accepted(path);
    expect(second!.body).toBe(first!.body);
    expect(second!.headers['dojo-delivery']).toBe(resent.id);
    const missing = await errorOf(() => webhooksOf(team.ada).resend(endpoint.id, 'no-such-delivery'));
    expect(missing).toMatchObject({ status: 404, message: webhookMessages.deliveryNotFound });
  });

  it('lets only admins manage endpoints and removes one with its deliveries', async () => {
    const refused = await errorOf(() => webhooksOf(team.bob).list());
    expect(refused.status).toBe(403);
    const { endpoint } = await addEndpoint(['member.joined']);
    await webhooksOf(team.ada).remove(endpoint.id);
    expect((await webhooksOf(team.ada).list()).some((entry) => entry.id === endpoint.id)).toBe(false);
    const gone = await errorOf(() => webhooksOf(team.ada).deliveries(endpoint.id));
    expect(gone).toMatchObject({ status: 404, message: webhookMessages.endpointNotFound });
    const badEvents = await errorOf(() =>
      webhooksOf(team.ada).create({ url: `${receiver.url}/x`, events: [] }),
    );
    expect(badEvents).toMatchObject({ status: 400, message: webhookMessages.eventsRequired });
    const badUrl = await errorOf(() =>
      webhooksOf(team.ada).create({ url: 'ftp://example.com/hook', events: ['project.created'] }),
    );
    expect(badUrl).toMatchObject({ status: 400, message: webhookMessages.urlInvalid });
  });
});

describe('outgoing webhooks with the default listeners cache', () => {
  it('delivers a create made at once after the endpoint is saved on the same instance', async () => {
    // The default cache (a second): the instance that saves an endpoint reads the heard events again at
    // once, so its next create takes the outbox path even where a create is otherwise one statement.
    const server = await startTestServer({
      configOverrides: { outboundAllowPrivate: true, webhookPollMs: 100 },
    });
    try {
      const admin = await signUpClient(server.url, 'Owner');
      // A create before any endpoint exists: nobody hears it, and nothing is sent for it later.
      await createProjectAs(admin, { name: 'Before the endpoint' });
      await createProjectAs(admin, { name: 'Before the endpoint, again' });
      await webhooksOf(admin).create({ url: `${receiver.url}/cached`, events: ['project.created'] });
      const project = await createProjectAs(admin, { name: 'Right after the endpoint' });
      await waitForAccepted('/cached', 1);
      const got = receiver.accepted('/cached');
      expect(got.map((entry) => entry.json.data.project?.id)).toEqual([project.id]);
      admin.client.close();
    } finally {
      await server.stop();
    }
  });
});

describe('outgoing webhooks without OUTBOUND_ALLOW_PRIVATE', () => {
  it('refuses endpoints on loopback, private and link-local addresses at save time', async () => {
    const server = await startTestServer();
    try {
      const admin = await signUpClient(server.url, 'Owner');
      const webhooks = webhooksOf(admin);
      for (const url of [
        `${receiver.url}/hook`,
        'http://10.1.2.3/hook',
        'http://192.168.0.10/hook',
        'http://169.254.169.254/latest/meta-data',
        'http://[::1]:8080/hook',
        'http://[::ffff:127.0.0.1]/hook',
        'http://localhost/hook',
      ]) {
        const refused = await errorOf(() => webhooks.create({ url, events: ['project.created'] }));
        expect(refused, url).toMatchObject({ status: 400, message: webhookMessages.urlPrivate });
      }
      expect(await webhooks.list()).toEqual([]);
      admin.client.close();
    } finally {
      await server.stop();
    }
  });
});
