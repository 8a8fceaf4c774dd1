import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectAs } from '../../../test/support/clients';
import { pollUntil, WAIT_MS } from '../../../test/support/poll';
import { useTwoInstanceTeam } from '../../../test/support/test-team';
import { signatureIsValid, WebhookReceiver, webhooksOf } from '../../../test/support/webhook-receiver';

/**
 * Outgoing webhooks on two instances of one PostgreSQL database (docs/decisions/077-webhook-delivery-
 * guarantees.md): both dispatchers run and poll often, writes happen on both, and the receiver holds each
 * request open a while, so that two instances sending to one endpoint at once would show as an overlap.
 */
const team = useTwoInstanceTeam(
  { ada: ['Ada', 'first'], bob: ['Bob', 'second'], cleo: ['Cleo', 'first'] },
  {
    outboundAllowPrivate: true,
    webhookPollMs: 50,
    webhookRetryBaseMs: 100,
    webhookDisableAfterFailures: 100,
    // The one-statement create path asks the cache; trusting it for 0 ms makes every create take the outbox
    // path at once, whichever instance saved the endpoint.
    webhookListenersCacheMs: 0,
  },
);
const receiver = new WebhookReceiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

describe('outgoing webhooks on two instances', () => {
  it('sends each event once, never two at once to an endpoint, in order per project, retrying failures', async () => {
    const path = '/two-instances';
    const { secret, endpoint } = await webhooksOf(team.ada).create({
      url: `${receiver.url}${path}`,
      events: ['project.created', 'project.edited', 'comment.added'],
    });
    receiver.holdMs = 20;
    // Every third request fails once: retries interleave with new events on both instances.
    const failedOnce = new Set<string>();
    let requests = 0;
    receiver.answer = (request) => {
      requests += 1;
      if (request.path === path && requests % 3 === 0 && !failedOnce.has(request.json.id)) {
        failedOnce.add(request.json.id);
        return 500;
      }
      return 200;
    };
    const writers = [team.bob, team.cleo];
    const expectedPerProject = new Map<string, string[]>();
    await Promise.all(
      writers.map(async (writer, index) => {
        for (let round = 0; round < 4; round++) {
          const project = await createProjectAs(writer, { name: `Project ${index}-${round}` });
          await writer.client.projects.addComment(project.id, { content: `Comment ${round}` });
          await writer.client.projects.update(project.id, {
            name: `Project ${index}-${round} edited`,
            details: project.details,
            dueDate: project.dueDate,
            category: project.category,
            assignedUserIds: project.assignedUserIds,
            version: project.version,
          });
          expectedPerProject.set(project.id, ['project.created', 'comment.added', 'project.edited']);
        }
      }),
    );
    const total = [...expectedPerProject.values()].reduce((sum, events) => sum + events.length, 0);
    await pollUntil(
      () => receiver.accepted(path).length >= total,
      WAIT_MS,
      () => `${receiver.accepted(path).length} of ${total} deliveries accepted`,
    );
    receiver.answer = () => 200;
    receiver.holdMs = 0;

    const accepted = receiver.accepted(path);
    expect(accepted).toHaveLength(total);
    expect(new Set(accepted.map((entry) => entry.json.id)).size).toBe(total);
    expect(receiver.maxInFlight).toBe(1);
    expect(failedOnce.size).toBeGreaterThan(0);
    for (const [projectId, events] of expectedPerProject) {
      const ofProject = accepted.filter((entry) => entry.json.data.project?.id === projectId);
      expect(ofProject.map((entry) => entry.json.event)).toEqual(events);
    }
    for (const entry of accepted) {
      expect(signatureIsValid(secret, entry.headers['dojo-signature'], entry.body)).toBe(true);
    }
    const deliveries = await webhooksOf(team.ada).deliveries(endpoint.id);
    expect(deliveries.every((delivery) => delivery.status === 'delivered')).toBe(true);
    expect(deliveries.filter((delivery) => delivery.attempts === 2)).toHaveLength(failedOnce.size);
  });
});
