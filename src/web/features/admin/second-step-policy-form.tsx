import { useState } from 'react';
import { messages } from '../../../common';
import { type SecondStepPolicy } from '../../../common/second-step';
import { SecondStepClient } from '../../../sdk/second-step';
import { ErrorAlert } from '../../components/error-alert';
import { FormSubmit } from '../../components/form-alert';
import { useFormAction, type Checked } from '../../hooks/use-form-action';
import { useOneShotRead } from '../../hooks/use-one-shot-read';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';

const twoStep = new SecondStepClient(dojo.transport);

const FIELDS = { policy: 'second-step-policy-off' };

const POLICIES: readonly { value: SecondStepPolicy; label: string; hint: string }[] = [
  { value: 'off', label: 'Off', hint: 'Each member chooses whether to turn on two-step sign-in.' },
  {
    value: 'admins',
    label: 'For admins',
    hint: 'Admins must give a code or use a passkey after their password; one without sets it up at login.',
  },
  {
    value: 'everyone',
    label: 'For everyone',
    hint: 'Every member must give a code or use a passkey after their password; one without sets it up at login.',
  },
];

const accept = (values: { policy: SecondStepPolicy }): Checked<{ policy: SecondStepPolicy }> => ({
  data: values,
});

/** Who must give a second step at password login (docs/decisions/064-two-step-sign-in.md). */
export function SecondStepPolicyForm() {
  const { data, failure } = useOneShotRead('second-step-policy', () => twoStep.policy());
  const loadError = failure ? errorMessage(failure.error) : null;
  const [chosen, setChosen] = useState<SecondStepPolicy | null>(null);
  const policy = chosen ?? data?.value ?? 'off';
  const [saved, setSaved] = useState(false);
  const form = useFormAction({
    check: accept,
    send: async (input: { policy: SecondStepPolicy }) => {
      setSaved(false);
      setChosen(await twoStep.setPolicy(input.policy));
      setSaved(true);
    },
    fields: FIELDS,
  });

  return (
    <section className="card" aria-labelledby="second-step-policy-heading">
      <h2 id="second-step-policy-heading">Two-step sign-in</h2>
      <ErrorAlert message={loadError} />
      {data === null && !loadError && <p className="loading">{messages.loading}</p>}
      {data !== null && (
        <form
          onSubmit={(event) => form.submit(event, { policy })}
          noValidate
          aria-labelledby="second-step-policy-heading"
        >
          <fieldset className="radio-group">
            <legend>Require a second step after the password:</legend>
            {POLICIES.map((option) => (
              <div key={option.value} className="radio-option">
                <input
                  id={`second-step-policy-${option.value}`}
                  type="radio"
                  name="second-step-policy"
                  value={option.value}
                  checked={policy === option.value}
                  aria-describedby={`second-step-policy-${option.value}-hint`}
                  onChange={() => {
                    setChosen(option.value);
                    setSaved(false);
                  }}
                />
                <label htmlFor={`second-step-policy-${option.value}`}>{option.label}</label>
                <p id={`second-step-policy-${option.value}-hint`} className="radio-hint">
                  {option.hint}
                </p>
              </div>
            ))}
          </fieldset>
          <p className="radio-hint">
            Single sign-on is not affected: the provider decides its own second step.
          </p>
          <FormSubmit form={form} label="Save two-step rule" pendingLabel="Saving..." />
          <div className="form-status" role="status">
            {saved && <p>Saved: the next password logins follow the new rule.</p>}
          </div>
        </form>
      )}
    </section>
  );
}
