import { useState } from 'react';
import type { CreatedWebhook, WebhookEndpoint } from '../../../common/webhooks';
import { ErrorAlert } from '../../components/error-alert';
import { PageTitle } from '../../components/page-title';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useOneShotRead } from '../../hooks/use-one-shot-read';
import { errorMessage } from '../../lib/error-message';
import { EndpointForm } from './endpoint-form';
import { EndpointItem } from './endpoint-item';
import { webhooksClient } from './webhooks-client';
import './webhooks.css';

/** Outgoing webhooks (admins only): endpoints, their recent deliveries, resend, re-enable. */
export function WebhooksPage() {
  useDocumentTitle('Webhooks');
  const { data, failure, update } = useOneShotRead('webhooks', () => webhooksClient.list());
  const endpoints = data?.value ?? null;
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const replace = (endpoint: WebhookEndpoint) =>
    update((current) => current?.map((row) => (row.id === endpoint.id ? endpoint : row)));
  const remove = (id: string) => update((current) => current?.filter((row) => row.id !== id));

  return (
    <div className="webhooks-page">
      <PageTitle>Webhooks</PageTitle>
      <p className="webhook-hint">
        Each event is sent as a signed JSON POST after its change is saved, retried for a day if the endpoint
        fails. See the API documentation for the payloads and how to verify the <code>Dojo-Signature</code>{' '}
        header.
      </p>
      <section className="card">
        <EndpointForm
          idPrefix="new-webhook"
          heading="Add an endpoint"
          headingLevel={2}
          submitLabel="Add endpoint"
          send={async (input) => {
            setCreated(null);
            const result = await webhooksClient.create(input);
            setCreated(result);
            update((current) => [...(current ?? []), result.endpoint]);
            requestAnimationFrame(() => document.getElementById('webhook-secret')?.focus());
          }}
        />
        <div className="form-status" role="status">
          {created && <p>Endpoint added. Copy its signing secret now: it is shown only once.</p>}
        </div>
        {created && (
          <div className="webhook-secret">
            <label htmlFor="webhook-secret">Signing secret of {created.endpoint.url}</label>
            <input
              id="webhook-secret"
              readOnly
              value={created.secret}
              onFocus={(event) => event.target.select()}
            />
          </div>
        )}
      </section>
      <section className="card" aria-labelledby="webhook-list-heading">
        <h2 id="webhook-list-heading">Endpoints</h2>
        {failure && <ErrorAlert message={errorMessage(failure.error)} />}
        {!endpoints && !failure && <p role="status">Loading endpoints…</p>}
        {endpoints?.length === 0 && <p>No endpoints yet.</p>}
        {endpoints && endpoints.length > 0 && (
          <ul className="webhook-list">
            {endpoints.map((endpoint) => (
              <EndpointItem key={endpoint.id} endpoint={endpoint} onChanged={replace} onRemoved={remove} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
