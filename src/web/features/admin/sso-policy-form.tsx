import { useState } from 'react';
import { messages } from '../../../common';
import { SsoPolicySchema, type SsoOptions, type SsoPolicy } from '../../../common/single-sign-on';
import { SingleSignOnClient } from '../../../sdk/single-sign-on';
import { ErrorAlert } from '../../components/error-alert';
import { FormSubmit } from '../../components/form-alert';
import { checkWith, useFormAction } from '../../hooks/use-form-action';
import { useOneShotRead } from '../../hooks/use-one-shot-read';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';

const FIELDS = { required: 'sso-required' };
const checkPolicy = checkWith(SsoPolicySchema);

/** The configured providers and the team's policy, read together. */
async function readSingleSignOn(): Promise<{ providers: SsoOptions['providers']; policy: SsoPolicy }> {
  const [options, policy] = await Promise.all([
    dojo.access.options(),
    new SingleSignOnClient(dojo.transport).policy(),
  ]);
  return { providers: options.providers, policy };
}

/**
 * "Require single sign-on" (decision 062): shown once a provider is configured (OIDC_PROVIDERS). While it
 * is on, members sign in only through a provider; admins keep their password, so an outage cannot lock
 * the team out.
 */
export function SsoPolicyForm() {
  const { data, failure } = useOneShotRead('sso-policy', readSingleSignOn);
  const [chosen, setChosen] = useState<boolean | null>(null);
  const [saved, setSaved] = useState(false);
  const required = chosen ?? data?.value.policy.required ?? false;
  const form = useFormAction({
    check: checkPolicy,
    send: async (policy: SsoPolicy) => {
      setSaved(false);
      const stored = await new SingleSignOnClient(dojo.transport).setPolicy(policy);
      setChosen(stored.required);
      setSaved(true);
    },
    fields: FIELDS,
    shownBelow: [],
  });
  const loadError = failure ? errorMessage(failure.error) : null;
  const providers = data?.value.providers ?? [];
  if (!loadError && data && providers.length === 0) return null;
  const names = providers.map((provider) => provider.name).join(', ');

  return (
    <section className="card" aria-labelledby="sso-heading">
      <h2 id="sso-heading">Single sign-on</h2>
      <ErrorAlert message={loadError} />
      {!data && !loadError && <p className="loading">{messages.loading}</p>}
      {data && (
        <form onSubmit={(event) => form.submit(event, { required })} noValidate aria-labelledby="sso-heading">
          <div className="radio-option">
            <input
              id={FIELDS.required}
              type="checkbox"
              checked={required}
              aria-describedby="sso-required-hint"
              onChange={(event) => {
                setChosen(event.target.checked);
                setSaved(false);
              }}
            />
            <label htmlFor={FIELDS.required}>Require single sign-on</label>
            <p id="sso-required-hint" className="radio-hint">
              Members then sign in only with {names}: password login and sign-up are refused for everyone but
              admins.
            </p>
          </div>
          <FormSubmit form={form} label="Save single sign-on rule" pendingLabel="Saving..." />
          <div className="form-status" role="status">
            {saved && <p>Saved: {required ? 'single sign-on is required.' : 'passwords work again.'}</p>}
          </div>
        </form>
      )}
    </section>
  );
}
