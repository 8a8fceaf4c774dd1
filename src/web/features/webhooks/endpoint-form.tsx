import { useState } from 'react';
import {
  CreateWebhookSchema,
  WEBHOOK_EVENTS,
  type CreateWebhookInput,
  type WebhookEndpoint,
  type WebhookEvent,
} from '../../../common/webhooks';
import { Field } from '../../components/field';
import { FormSubmit } from '../../components/form-alert';
import { checkWith, useFormAction } from '../../hooks/use-form-action';

export const EVENT_LABELS: Record<WebhookEvent, string> = {
  'project.created': 'Project created',
  'project.edited': 'Project edited',
  'project.completed': 'Project completed',
  'project.reopened': 'Project reopened',
  'project.deleted': 'Project deleted',
  'comment.added': 'Comment added',
  'member.joined': 'Member joined',
};

const checkEndpoint = checkWith(CreateWebhookSchema);

interface EndpointFormProps {
  /** Ids of this form's controls start so (a page has the add form and an edit form per endpoint). */
  idPrefix: string;
  heading: string;
  /** The heading's level where the form stands (the add form is a section, an edit form is in an item). */
  headingLevel: 2 | 4;
  submitLabel: string;
  /** The endpoint being edited; absent for a new one. */
  endpoint?: WebhookEndpoint;
  /** Sends the checked input; a thrown SDK error becomes the form's problems. */
  send: (input: CreateWebhookInput) => Promise<void>;
}

/** An endpoint's address, its events and, optionally, the admin's own signing secret. */
export function EndpointForm({
  idPrefix,
  heading,
  headingLevel,
  submitLabel,
  endpoint,
  send,
}: EndpointFormProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h4';
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [events, setEvents] = useState<WebhookEvent[]>(endpoint?.events ?? [...WEBHOOK_EVENTS]);
  const [secret, setSecret] = useState('');
  const fields = { url: `${idPrefix}-url`, events: `${idPrefix}-events`, secret: `${idPrefix}-secret` };
  const form = useFormAction({
    check: checkEndpoint,
    send,
    fields,
    shownBelow: ['url', 'events', 'secret'],
  });
  const headingId = `${idPrefix}-heading`;
  const eventsError = form.fieldError('events').error;
  const toggle = (event: WebhookEvent, on: boolean) => {
    setEvents((current) => WEBHOOK_EVENTS.filter((name) => (name === event ? on : current.includes(name))));
    form.setFieldError('events', undefined);
  };

  return (
    <form
      onSubmit={(event) =>
        form.submit(event, { url, events, ...(secret.trim() === '' ? {} : { secret: secret.trim() }) })
      }
      noValidate
      aria-labelledby={headingId}
      className="webhook-form"
    >
      <Heading id={headingId}>{heading}</Heading>
      <Field
        id={fields.url}
        label="Endpoint URL:"
        type="url"
        inputMode="url"
        autoComplete="off"
        placeholder="https://example.com/dojo-hook"
        required
        {...form.textField('url', url, setUrl)}
      />
      <fieldset
        id={fields.events}
        className="webhook-events"
        aria-invalid={eventsError ? true : undefined}
        aria-describedby={eventsError ? `${fields.events}-error` : undefined}
      >
        <legend>Events to send:</legend>
        {WEBHOOK_EVENTS.map((event) => (
          <label key={event} className="webhook-event">
            <input
              type="checkbox"
              checked={events.includes(event)}
              onChange={(change) => toggle(event, change.target.checked)}
            />{' '}
            {EVENT_LABELS[event]}
          </label>
        ))}
        {eventsError && (
          <p id={`${fields.events}-error`} className="field-error">
            {eventsError}
          </p>
        )}
      </fieldset>
      <Field
        id={fields.secret}
        label={
          endpoint ? 'New signing secret (optional):' : 'Signing secret (optional; one is made for you):'
        }
        autoComplete="off"
        spellCheck={false}
        {...form.textField('secret', secret, setSecret)}
      />
      <FormSubmit form={form} label={submitLabel} pendingLabel="Saving..." />
    </form>
  );
}
