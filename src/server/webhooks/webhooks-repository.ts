import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../db/schema';

export type WebhookEndpointRow = Selectable<Database['webhook_endpoints']>;
export type WebhookDeliveryRow = Selectable<Database['webhook_deliveries']>;

export async function listEndpoints(db: Kysely<Database>): Promise<WebhookEndpointRow[]> {
  return db.selectFrom('webhook_endpoints').selectAll().orderBy('created_at').orderBy('id').execute();
}

export async function countEndpoints(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function findEndpoint(
  db: Kysely<Database>,
  id: string,
): Promise<WebhookEndpointRow | undefined> {
  return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertEndpoint(
  db: Kysely<Database>,
  row: Omit<WebhookEndpointRow, 'enabled' | 'consecutive_failures' | 'claimed_by' | 'claimed_until'>,
): Promise<void> {
  await db.insertInto('webhook_endpoints').values(row).execute();
}

export async function updateEndpoint(
  db: Kysely<Database>,
  id: string,
  patch: Partial<
    Pick<
      WebhookEndpointRow,
      'url' | 'events' | 'secret' | 'enabled' | 'consecutive_failures' | 'disabled_at' | 'disabled_reason'
    >
  > & { updated_at: string },
): Promise<boolean> {
  const result = await db.updateTable('webhook_endpoints').set(patch).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteEndpoint(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await db.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The events some enabled endpoint hears (the JSON arrays of their `events`, parsed by the caller). */
export async function listEnabledEventLists(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('webhook_endpoints').select('events').where('enabled', '=', 1).execute();
  return rows.map((row) => row.events);
}

/**
 * Inside the transaction of the change: one pending delivery of the event for each enabled endpoint that
 * hears it, in one statement. Its id is the event's and the endpoint's, so it is the same on every attempt.
 * Returns how many it wrote.
 */
export async function insertDeliveries(
  trx: Kysely<Database>,
  event: { id: string; type: string; projectId: string | null; payload: string; now: string },
): Promise<number> {
  const result = await sql`
    insert into webhook_deliveries (id, endpoint_id, event, project_id, payload, status, next_attempt_at, created_at)
    select cast(${event.id} as text) || '-' || id, id, cast(${event.type} as text),
      cast(${event.projectId} as text), cast(${event.payload} as text), 'pending',
      cast(${event.now} as text), cast(${event.now} as text)
    from webhook_endpoints
    where enabled = 1 and events like cast(${`%"${event.type}"%`} as text)`.execute(trx);
  return Number(result.numAffectedRows ?? 0);
}

export async function listDeliveries(
  db: Kysely<Database>,
  endpointId: string,
  limit: number,
): Promise<WebhookDeliveryRow[]> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('endpoint_id', '=', endpointId)
    .orderBy('seq', 'desc')
    .limit(limit)
    .execute();
}

export async function findDelivery(
  db: Kysely<Database>,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDeliveryRow | undefined> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('endpoint_id', '=', endpointId)
    .where('id', '=', deliveryId)
    .executeTakeFirst();
}

/** A copy of a delivery at the end of its endpoint's queue, with the same body (the receiver dedupes). */
export async function insertResend(
  db: Kysely<Database>,
  original: WebhookDeliveryRow,
  id: string,
  now: string,
): Promise<WebhookDeliveryRow> {
  return db
    .insertInto('webhook_deliveries')
    .values({
      id,
      endpoint_id: original.endpoint_id,
      event: original.event,
      project_id: original.project_id,
      payload: original.payload,
      status: 'pending',
      next_attempt_at: now,
      last_attempt_at: null,
      response_status: null,
      duration_ms: null,
      response_excerpt: null,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Enabled endpoints nobody holds whose queue has a delivery that may go now, up to `limit`. */
export async function findEndpointsWithDueDeliveries(
  db: Kysely<Database>,
  now: string,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('webhook_endpoints as e')
    .select('e.id')
    .where('e.enabled', '=', 1)
    .where((eb) => eb.or([eb('e.claimed_until', 'is', null), eb('e.claimed_until', '<', now)]))
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('webhook_deliveries as d')
          .select('d.seq')
          .whereRef('d.endpoint_id', '=', 'e.id')
          .where('d.status', '=', 'pending')
          .where('d.next_attempt_at', '<=', now),
      ),
    )
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Takes an endpoint's queue for `instance` until `until`, in one statement: of two instances trying at once
 * the second finds it held (PostgreSQL re-checks the condition once the first commits; SQLite writes one at
 * a time) and gets nothing. True when this instance holds it.
 */
export async function claimEndpoint(
  db: Kysely<Database>,
  id: string,
  instance: string,
  now: string,
  until: string,
): Promise<boolean> {
  const claimed = await db
    .updateTable('webhook_endpoints')
    .set({ claimed_by: instance, claimed_until: until })
    .where('id', '=', id)
    .where('enabled', '=', 1)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .returning('id')
    .execute();
  return claimed.length > 0;
}

/** Extends this instance's hold; false when it no longer holds it (the lease ran out and another took it). */
export async function renewClaim(
  db: Kysely<Database>,
  id: string,
  instance: string,
  now: string,
  until: string,
): Promise<boolean> {
  const renewed = await db
    .updateTable('webhook_endpoints')
    .set({ claimed_until: until })
    .where('id', '=', id)
    .where('claimed_by', '=', instance)
    .where('claimed_until', '>=', now)
    .where('enabled', '=', 1)
    .returning('id')
    .execute();
  return renewed.length > 0;
}

export async function releaseClaim(db: Kysely<Database>, id: string, instance: string): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({ claimed_by: null, claimed_until: null })
    .where('id', '=', id)
    .where('claimed_by', '=', instance)
    .execute();
}

/** The oldest pending delivery of an endpoint: its queue is sent strictly in commit order. */
export async function headOfQueue(
  db: Kysely<Database>,
  endpointId: string,
): Promise<WebhookDeliveryRow | undefined> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .orderBy('seq')
    .limit(1)
    .executeTakeFirst();
}

export async function recordAttempt(
  db: Kysely<Database>,
  deliveryId: string,
  attempt: Pick<
    WebhookDeliveryRow,
    | 'status'
    | 'attempts'
    | 'next_attempt_at'
    | 'last_attempt_at'
    | 'response_status'
    | 'duration_ms'
    | 'response_excerpt'
  >,
): Promise<void> {
  await db.updateTable('webhook_deliveries').set(attempt).where('id', '=', deliveryId).execute();
}

/**
 * Removes an endpoint's finished deliveries (delivered or failed) older than its `keep` newest finished
 * ones; pending deliveries always stay.
 */
export async function pruneFinishedDeliveries(
  db: Kysely<Database>,
  endpointId: string,
  keep: number,
): Promise<void> {
  const finished = ['delivered', 'failed'] as const;
  await db
    .deleteFrom('webhook_deliveries')
    .where('endpoint_id', '=', endpointId)
    .where('status', 'in', finished)
    .where('seq', '<', (eb) =>
      eb
        .selectFrom('webhook_deliveries')
        .select('seq')
        .where('endpoint_id', '=', endpointId)
        .where('status', 'in', finished)
        .orderBy('seq', 'desc')
        .limit(1)
        .offset(keep - 1),
    )
    .execute();
}

/** After a 2xx: the endpoint's failures in a row start again at zero. */
export async function resetFailures(db: Kysely<Database>, id: string): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({ consecutive_failures: 0 })
    .where('id', '=', id)
    .where('consecutive_failures', '>', 0)
    .execute();
}

/**
 * Counts a failed attempt; at `disableAfter` failures in a row the endpoint is disabled with `reason`.
 * Returns whether this attempt disabled it.
 */
export async function countFailure(
  db: Kysely<Database>,
  id: string,
  disableAfter: number,
  now: string,
  reason: string,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('webhook_endpoints')
      .set((eb) => ({ consecutive_failures: eb('consecutive_failures', '+', 1) }))
      .where('id', '=', id)
      .returning(['consecutive_failures', 'enabled'])
      .executeTakeFirst();
    if (!row || row.enabled !== 1 || row.consecutive_failures < disableAfter) return false;
    await trx
      .updateTable('webhook_endpoints')
      .set({ enabled: 0, disabled_at: now, disabled_reason: reason, updated_at: now })
      .where('id', '=', id)
      .execute();
    return true;
  });
}
