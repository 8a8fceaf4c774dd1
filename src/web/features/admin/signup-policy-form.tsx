import { useState } from 'react';
import { SignupPolicySchema, messages, type SignupPolicy, type SignupPolicyMode } from '../../../common';
import { ErrorAlert } from '../../components/error-alert';
import { Field } from '../../components/field';
import { FormSubmit } from '../../components/form-alert';
import { checkWith, useFormAction } from '../../hooks/use-form-action';
import { useOneShotRead } from '../../hooks/use-one-shot-read';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';

const FIELDS = { mode: 'policy-mode-open', domains: 'policy-domains' };

const MODES: readonly { value: SignupPolicyMode; label: string; hint: string }[] = [
  { value: 'open', label: 'Anyone', hint: 'Anyone who can open this site can create an account.' },
  {
    value: 'invitation',
    label: 'Invitation only',
    hint: 'Only people with an invitation link can create an account.',
  },
  {
    value: 'domains',
    label: 'These email domains',
    hint: 'Anyone with an address at one of these domains, or an invitation link.',
  },
];

const checkPolicy = checkWith(SignupPolicySchema);

/** Who may create an account; loaded from the server and saved back. */
export function SignupPolicyForm() {
  const { data, failure } = useOneShotRead('signup-policy', () => dojo.admin.signupPolicy());
  const loadError = failure ? errorMessage(failure.error) : null;
  const loaded = data !== null;
  // What the admin chose or saved since it loaded; null shows the policy as loaded.
  const [chosenMode, setMode] = useState<SignupPolicyMode | null>(null);
  const [typedDomains, setDomains] = useState<string | null>(null);
  const mode = chosenMode ?? data?.value.mode ?? 'open';
  const domains = typedDomains ?? data?.value.domains.join('\n') ?? '';
  const [saved, setSaved] = useState(false);
  const form = useFormAction({
    check: checkPolicy,
    send: async (policy: SignupPolicy) => {
      setSaved(false);
      const stored = await dojo.admin.setSignupPolicy(policy);
      setMode(stored.mode);
      setDomains(stored.domains.join('\n'));
      setSaved(true);
    },
    fields: FIELDS,
    shownBelow: ['domains'],
  });

  return (
    <section className="card" aria-labelledby="policy-heading">
      <h2 id="policy-heading">Who can sign up</h2>
      <ErrorAlert message={loadError} />
      {!loaded && !loadError && <p className="loading">{messages.loading}</p>}
      {loaded && (
        <form
          onSubmit={(event) =>
            form.submit(event, {
              mode,
              domains: domains
                .split('\n')
                .map((line) => line.trim())
                .filter(Boolean),
            })
          }
          noValidate
          aria-labelledby="policy-heading"
        >
          <fieldset className="radio-group">
            <legend>Sign-up is open to:</legend>
            {MODES.map((option) => (
              <div key={option.value} className="radio-option">
                <input
                  id={`policy-mode-${option.value}`}
                  type="radio"
                  name="mode"
                  value={option.value}
                  checked={mode === option.value}
                  aria-describedby={`policy-mode-${option.value}-hint`}
                  onChange={() => {
                    setMode(option.value);
                    setSaved(false);
                  }}
                />
                <label htmlFor={`policy-mode-${option.value}`}>{option.label}</label>
                <p id={`policy-mode-${option.value}-hint`} className="radio-hint">
                  {option.hint}
                </p>
              </div>
            ))}
          </fieldset>
          <Field
            as="textarea"
            id={FIELDS.domains}
            label="Email domains, one per line (e.g. example.com):"
            className="policy-domains"
            rows={4}
            {...form.textField('domains', domains, (value) => {
              setDomains(value);
              setSaved(false);
            })}
          />
          <FormSubmit form={form} label="Save" pendingLabel="Saving..." />
          <div className="form-status" role="status">
            {saved && <p>Saved: who can sign up has changed.</p>}
          </div>
        </form>
      )}
    </section>
  );
}
