import { useState } from 'react';
import {
  API_TOKEN_EXPIRY_DAYS,
  CreateApiTokenSchema,
  type ApiToken,
  type CreateApiTokenInput,
  type CreatedApiToken,
} from '../../../common/api-tokens';
import { ApiTokensClient } from '../../../sdk/api-tokens';
import { ActionOutcome, useRowAction } from '../../components/action-outcome';
import { Field } from '../../components/field';
import { FormSubmit } from '../../components/form-alert';
import { useAnnouncer } from '../../hooks/use-announcer';
import { checkWith, useFormAction } from '../../hooks/use-form-action';
import { useOneShotRead } from '../../hooks/use-one-shot-read';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';
import { ApiTokenItem } from './api-token-item';
import { LoadedList, SettingsSection } from './settings-section';
import { ShownOnce } from './shown-once';
import './api-tokens.css';

const apiTokens = new ApiTokensClient(dojo.transport);

type FormAction = ReturnType<typeof useFormAction>;

const FIELDS = { name: 'api-token-name', scope: 'api-token-scope', expiresInDays: 'api-token-expiry' };

interface FormValues {
  name: string;
  scope: string;
  expiresInDays: string;
}

const checkToken = checkWith(CreateApiTokenSchema);
const check = (values: FormValues) => checkToken({ ...values, expiresInDays: Number(values.expiresInDays) });

const scopeLabel = (scope: ApiToken['scope']): string => (scope === 'read' ? 'Read only' : 'Read and write');

/**
 * Personal API tokens for scripts (docs/decisions/063-personal-api-tokens.md): made here with a name, a
 * scope and a lifetime, the secret shown once, listed, and revoked (confirmed in place).
 */
export function ApiTokensSection() {
  const { data, failure, reload, update } = useOneShotRead('api-tokens', () => apiTokens.list());
  const tokens = data?.value ?? null;
  const loadError = failure ? errorMessage(failure.error) : null;
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const rows = useRowAction<'revoke'>();
  const { say } = useAnnouncer();

  const revoke = (token: ApiToken) =>
    void rows.run(
      token.id,
      'revoke',
      async () => {
        await apiTokens.revoke(token.id);
        update((list) => list?.filter((listed) => listed.id !== token.id));
        if (created?.token.id === token.id) setCreated(null);
        return `Revoked "${token.name}". Scripts using it are refused from now on.`;
      },
      reload,
    );

  return (
    <SettingsSection
      name="api-tokens"
      title="API tokens"
      hint={
        <>
          A script signs in with a token as <code>Authorization: Bearer &lt;token&gt;</code>, with your
          permissions within the token&apos;s scope. Tokens cannot change your password, sessions or tokens.
        </>
      }
    >
      {created && <NewTokenSecret created={created} onDone={() => setCreated(null)} />}
      <CreateTokenForm
        onCreated={(made) => {
          setCreated(made);
          say(`Token "${made.token.name}" created. Copy it now: it is shown only this once.`);
          update((list) => [made.token, ...(list ?? [])]);
        }}
      />
      <h3 id="api-tokens-list-heading">Your tokens</h3>
      <LoadedList
        items={tokens}
        loadError={loadError}
        empty="You have no API tokens."
        labelledBy="api-tokens-list-heading"
      >
        {(token) => (
          <ApiTokenItem
            key={token.id}
            token={token}
            busy={rows.pending !== null}
            revoking={rows.pending?.id === token.id}
            onRevoke={revoke}
          />
        )}
      </LoadedList>
      <ActionOutcome error={rows.error} status={rows.status} />
    </SettingsSection>
  );
}

function CreateTokenForm({ onCreated }: { onCreated: (created: CreatedApiToken) => void }) {
  const [name, setName] = useState('');
  const [scope, setScope] = useState<string>('read');
  const [expiresInDays, setExpiresInDays] = useState<string>('30');
  const form = useFormAction({
    check,
    send: async (input: CreateApiTokenInput) => {
      onCreated(await apiTokens.create(input));
      setName('');
    },
    fields: FIELDS,
    shownBelow: ['name'],
  });

  return (
    <form
      className="settings-form api-token-form"
      onSubmit={(event) => form.submit(event, { name, scope, expiresInDays })}
      noValidate
      aria-labelledby="api-token-form-heading"
    >
      <h3 id="api-token-form-heading">New token</h3>
      <Field
        id={FIELDS.name}
        label="Name:"
        maxLength={200}
        autoComplete="off"
        placeholder="e.g. Nightly report"
        required
        {...form.textField('name', name, setName)}
      />
      <SelectField
        id={FIELDS.scope}
        label="Scope:"
        name="scope"
        value={scope}
        form={form}
        onChange={setScope}
        options={(['read', 'write'] as const).map((option) => ({ value: option, label: scopeLabel(option) }))}
      />
      <SelectField
        id={FIELDS.expiresInDays}
        label="Expires after:"
        name="expiresInDays"
        value={expiresInDays}
        form={form}
        onChange={setExpiresInDays}
        options={API_TOKEN_EXPIRY_DAYS.map((days) => ({
          value: String(days),
          label: days === 365 ? '1 year' : `${days} days`,
        }))}
      />
      <FormSubmit form={form} label="Create token" pendingLabel="Creating..." />
    </form>
  );
}

/** One choice of the form, as a select in a `Field`: choosing clears the field's message. */
function SelectField({
  id,
  label,
  name,
  value,
  form,
  onChange,
  options,
}: {
  id: string;
  label: string;
  name: string;
  value: string;
  form: Pick<FormAction, 'fieldError' | 'setFieldError'>;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
}) {
  return (
    <Field id={id} label={label} as="custom" {...form.fieldError(name)}>
      {(control) => (
        <select
          id={control.id}
          name={name}
          value={value}
          aria-invalid={control.invalid || undefined}
          aria-describedby={control.errorId}
          onChange={(event) => {
            onChange(event.target.value);
            form.setFieldError(name, undefined);
          }}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** The new token's secret, this once, with a clear warning. */
function NewTokenSecret({ created, onDone }: { created: CreatedApiToken; onDone: () => void }) {
  return (
    <ShownOnce
      id="api-token-secret"
      className="api-token-secret"
      heading={`Your new token "${created.token.name}"`}
      warning="Copy it now: this is the only time it is shown. Keep it secret, like a password."
      label="Token:"
      noun="token"
      value={created.secret}
      inputClassName="api-token-secret-value"
      actionsClassName="api-token-actions"
      copied="Token copied."
      onDone={onDone}
    />
  );
}
