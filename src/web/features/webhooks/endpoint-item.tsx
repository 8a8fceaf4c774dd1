import { useState } from 'react';
import type { WebhookDelivery, WebhookEndpoint } from '../../../common/webhooks';
import { ActionOutcome, useRowAction } from '../../components/action-outcome';
import { errorMessage } from '../../lib/error-message';
import { absoluteTime } from '../../lib/time-format';
import { EndpointForm, EVENT_LABELS } from './endpoint-form';
import { webhooksClient } from './webhooks-client';

const STATUS_LABELS: Record<WebhookDelivery['status'], string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed (gave up)',
};

interface EndpointItemProps {
  endpoint: WebhookEndpoint;
  onChanged: (endpoint: WebhookEndpoint) => void;
  onRemoved: (id: string) => void;
}

/** One endpoint: its events, a disabled notice, its recent deliveries, and what an admin may do to it. */
export function EndpointItem({ endpoint, onChanged, onRemoved }: EndpointItemProps) {
  const [editing, setEditing] = useState(false);
  const [confirmingRemoval, setConfirmingRemoval] = useState(false);
  const [deliveries, setDeliveries] = useState<WebhookDelivery[] | null>(null);
  const [deliveriesError, setDeliveriesError] = useState<string | null>(null);
  const { run, pending, error, status } = useRowAction<'enable' | 'remove' | 'resend' | 'load'>();
  const headingId = `webhook-${endpoint.id}`;

  const loadDeliveries = () =>
    run(endpoint.id, 'load', async () => {
      setDeliveriesError(null);
      try {
        const list = await webhooksClient.deliveries(endpoint.id);
        setDeliveries(list);
        return `${list.length} recent ${list.length === 1 ? 'delivery' : 'deliveries'} shown.`;
      } catch (caught) {
        setDeliveriesError(errorMessage(caught));
        throw caught;
      }
    });

  return (
    <li className="webhook-item" aria-labelledby={headingId}>
      <h3 id={headingId} className="webhook-url">
        {endpoint.url}
      </h3>
      <p className="webhook-hint">
        {endpoint.enabled ? 'Enabled' : 'Disabled'} ·{' '}
        {endpoint.events.map((event) => EVENT_LABELS[event]).join(', ')}
      </p>
      {!endpoint.enabled && (
        <div className="webhook-disabled" role="note">
          <p>
            <strong>Disabled</strong>
            {endpoint.disabledAt && <> since {absoluteTime(endpoint.disabledAt)}</>}.{' '}
            {endpoint.disabledReason ?? ''} Its deliveries wait until it is enabled again.
          </p>
          <button
            type="button"
            className="btn btn-small"
            aria-disabled={pending ? true : undefined}
            onClick={() =>
              run(endpoint.id, 'enable', async () => {
                onChanged(await webhooksClient.update(endpoint.id, { enabled: true }));
                return 'Endpoint enabled again: its waiting deliveries are being sent.';
              })
            }
          >
            Enable again
          </button>
        </div>
      )}
      <div className="webhook-actions">
        <button
          type="button"
          className="btn btn-small"
          aria-expanded={editing}
          onClick={() => setEditing(!editing)}
        >
          {editing ? 'Cancel edit' : 'Edit'}
        </button>
        <button
          type="button"
          className="btn btn-small"
          aria-disabled={pending ? true : undefined}
          onClick={loadDeliveries}
        >
          {deliveries ? 'Refresh deliveries' : 'Show deliveries'}
        </button>
        {confirmingRemoval ? (
          <>
            <button
              type="button"
              className="btn btn-small"
              aria-disabled={pending ? true : undefined}
              onClick={() =>
                run(endpoint.id, 'remove', async () => {
                  await webhooksClient.remove(endpoint.id);
                  onRemoved(endpoint.id);
                  return 'Endpoint removed.';
                })
              }
            >
              Remove for good
            </button>
            <button type="button" className="btn btn-small" onClick={() => setConfirmingRemoval(false)}>
              Keep it
            </button>
          </>
        ) : (
          <button type="button" className="btn btn-small" onClick={() => setConfirmingRemoval(true)}>
            Remove
          </button>
        )}
      </div>
      <ActionOutcome error={error} status={status} />
      {editing && (
        <EndpointForm
          idPrefix={`edit-${endpoint.id}`}
          heading="Edit endpoint"
          headingLevel={4}
          submitLabel="Save endpoint"
          endpoint={endpoint}
          send={async (input) => {
            onChanged(await webhooksClient.update(endpoint.id, input));
            setEditing(false);
          }}
        />
      )}
      {deliveriesError === null && deliveries && deliveries.length === 0 && <p>No deliveries yet.</p>}
      {deliveries && deliveries.length > 0 && (
        <section aria-label={`Recent deliveries to ${endpoint.url}`}>
          <h4 className="webhook-deliveries-heading">Recent deliveries, newest first</h4>
          <ul className="webhook-deliveries">
            {deliveries.map((delivery) => (
              <li key={delivery.id} className="webhook-delivery">
                <p>
                  <strong>{EVENT_LABELS[delivery.event]}</strong>: {STATUS_LABELS[delivery.status]}
                  {delivery.attempts > 1 && ` after ${delivery.attempts} attempts`}
                  {delivery.durationMs !== null && `, ${delivery.durationMs} ms`},{' '}
                  {absoluteTime(delivery.lastAttemptAt ?? delivery.createdAt)}
                </p>
                <p className="webhook-excerpt">
                  {delivery.responseStatus !== null && `HTTP ${delivery.responseStatus}: `}
                  {delivery.responseExcerpt ?? 'Not sent yet.'}
                </p>
                <button
                  type="button"
                  className="btn btn-small"
                  aria-disabled={pending ? true : undefined}
                  onClick={() =>
                    run(delivery.id, 'resend', async () => {
                      const copy = await webhooksClient.resend(endpoint.id, delivery.id);
                      setDeliveries((current) => [copy, ...(current ?? [])]);
                      return 'Delivery queued again.';
                    })
                  }
                >
                  Resend
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </li>
  );
}
