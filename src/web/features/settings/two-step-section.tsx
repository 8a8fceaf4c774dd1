import { useState } from 'react';
import {
  secondStepMessages,
  type RecoveryCodes,
  type SecondStepProof,
  type TotpEnrolment,
} from '../../../common/second-step';
import { SecondStepClient } from '../../../sdk/second-step';
import { ErrorAlert } from '../../components/error-alert';
import { Field } from '../../components/field';
import { FormSubmit } from '../../components/form-alert';
import { OneTimeCodeField, RecoveryCodeList, TotpSecret } from '../../components/two-step';
import { useAnnouncer } from '../../hooks/use-announcer';
import { useFormAction, type Checked } from '../../hooks/use-form-action';
import { useOneShotRead } from '../../hooks/use-one-shot-read';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';
import { Loaded, SettingsSection } from './settings-section';

const twoStep = new SecondStepClient(dojo.transport);

/** What the section shows besides the state it loaded: a secret being set up, or new recovery codes. */
type Stage =
  { kind: 'idle' } | { kind: 'scanning'; enrolment: TotpEnrolment } | { kind: 'codes'; codes: string[] };

const requireCode = (values: { code: string }): Checked<{ code: string }> =>
  values.code.trim()
    ? { data: { code: values.code.trim() } }
    : { fields: { code: secondStepMessages.codeRequired } };

/** Two-step sign-in: TOTP on and off, and recovery codes (docs/decisions/064-two-step-sign-in.md). */
export function TwoStepSection() {
  const { data, failure, reload } = useOneShotRead('two-step', () => twoStep.status());
  const { say } = useAnnouncer();
  const [stage, setStage] = useState<Stage>({ kind: 'idle' });
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);
  const status = data?.value;
  const loadError = failure ? errorMessage(failure.error) : null;

  const start = async () => {
    if (starting) return;
    setStarting(true);
    setStartError(null);
    try {
      setStage({ kind: 'scanning', enrolment: await twoStep.startTotp() });
    } catch (caught) {
      setStartError(errorMessage(caught));
    } finally {
      setStarting(false);
    }
  };
  const showCodes = ({ recoveryCodes }: RecoveryCodes, said: string) => {
    setStage({ kind: 'codes', codes: recoveryCodes });
    say(said);
    reload();
  };

  return (
    <SettingsSection name="two-step" title="Two-step sign-in">
      <Loaded value={status} loadError={loadError}>
        {(loaded) => (
          <>
            {stage.kind === 'codes' && (
              <RecoveryCodeList
                codes={stage.codes}
                doneLabel="I have saved my recovery codes"
                onDone={() => setStage({ kind: 'idle' })}
              />
            )}
            {stage.kind === 'scanning' && (
              <ConfirmTotpForm
                enrolment={stage.enrolment}
                onCancel={() => setStage({ kind: 'idle' })}
                onConfirmed={(codes) => showCodes(codes, 'Two-step sign-in is on.')}
              />
            )}
            {stage.kind === 'idle' && !loaded.totp && (
              <>
                <p>
                  Two-step sign-in is off. With it on, logging in with your password also asks for a code from
                  an authenticator app on your phone.
                </p>
                {loaded.required && (
                  <p className="settings-warning">
                    Your team requires a second step: you will be asked to set it up when you log in.
                  </p>
                )}
                {loaded.hasPassword ? (
                  <button
                    className="btn"
                    type="button"
                    onClick={() => void start()}
                    aria-disabled={starting || undefined}
                  >
                    {starting ? 'Preparing...' : 'Turn on two-step sign-in'}
                  </button>
                ) : (
                  <p>{secondStepMessages.noPassword}</p>
                )}
                <ErrorAlert message={startError} />
              </>
            )}
            {stage.kind === 'idle' && loaded.totp && (
              <>
                <p>
                  Two-step sign-in is on: logging in with your password also asks for a code from your
                  authenticator app. {loaded.recoveryCodesLeft} of 10 recovery codes left.
                </p>
                <ProofForm
                  id="recovery-codes-proof"
                  title="New recovery codes"
                  hint="Your old recovery codes stop working."
                  submitLabel="Get new recovery codes"
                  send={async (proof) =>
                    showCodes(await twoStep.regenerateRecoveryCodes(proof), 'New recovery codes made.')
                  }
                />
                <ProofForm
                  id="turn-off-proof"
                  title="Turn off two-step sign-in"
                  hint={
                    loaded.required
                      ? 'Your team requires a second step: you will be asked to set it up again at your next login.'
                      : 'Your password alone will sign you in.'
                  }
                  submitLabel="Turn off"
                  send={async (proof) => {
                    await twoStep.turnOff(proof);
                    say('Two-step sign-in is off.');
                    reload();
                  }}
                />
              </>
            )}
          </>
        )}
      </Loaded>
    </SettingsSection>
  );
}

/** The secret to scan, and the first code from the app, which turns TOTP on. */
function ConfirmTotpForm({
  enrolment,
  onCancel,
  onConfirmed,
}: {
  enrolment: TotpEnrolment;
  onCancel: () => void;
  onConfirmed: (codes: RecoveryCodes) => void;
}) {
  const [code, setCode] = useState('');
  const fields = { code: 'totp-setup-code' };
  const form = useFormAction({
    check: requireCode,
    send: async ({ code: typed }: { code: string }) => onConfirmed(await twoStep.confirmTotp(typed)),
    fields,
    shownBelow: ['code'],
  });
  return (
    <form
      className="settings-form"
      onSubmit={(event) => form.submit(event, { code })}
      noValidate
      aria-label="Set up two-step sign-in"
    >
      <TotpSecret enrolment={enrolment} />
      <OneTimeCodeField
        id={fields.code}
        label="Then enter the 6-digit code the app shows:"
        {...form.textField('code', code, setCode)}
      />
      <div className="two-step-actions">
        <FormSubmit form={form} label="Turn on" pendingLabel="Checking..." />
        <button className="text-button" type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** An action that needs the member at the keyboard: their password, or a code from the app (or a recovery code). */
function ProofForm({
  id,
  title,
  hint,
  submitLabel,
  send,
}: {
  id: string;
  title: string;
  hint: string;
  submitLabel: string;
  send: (proof: SecondStepProof) => Promise<void>;
}) {
  const [proof, setProof] = useState('');
  const fields = { password: id };
  const form = useFormAction({
    check: ({ password }: { password: string }): Checked<{ password: string }> =>
      password ? { data: { password } } : { fields: { password: secondStepMessages.proofRequired } },
    // One box for either: the server tries it as the password, then as a code.
    send: async ({ password }: { password: string }) => {
      await send({ password, code: password });
      setProof('');
    },
    fields,
    shownBelow: ['password'],
  });
  return (
    <form
      className="settings-form"
      onSubmit={(event) => form.submit(event, { password: proof })}
      noValidate
      aria-labelledby={`${id}-title`}
    >
      <h3 id={`${id}-title`}>{title}</h3>
      <p>{hint}</p>
      <Field
        id={id}
        type="password"
        autoComplete="current-password"
        required
        label="Your password, or a code from your authenticator app:"
        {...form.textField('password', proof, setProof)}
      />
      <FormSubmit form={form} label={submitLabel} pendingLabel="Checking..." />
    </form>
  );
}
