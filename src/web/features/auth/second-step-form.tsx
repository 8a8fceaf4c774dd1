import { useEffect, useState, type ReactNode } from 'react';
import type { SecondStepChallenge } from '../../../common';
import { secondStepMessages, type TotpEnrolment } from '../../../common/second-step';
import { SecondStepClient } from '../../../sdk/second-step';
import { ErrorAlert } from '../../components/error-alert';
import { PageTitle } from '../../components/page-title';
import { FormSubmit } from '../../components/form-alert';
import { OneTimeCodeField, RecoveryCodeList, TotpSecret } from '../../components/two-step';
import { useAuthContext } from '../../hooks/use-auth-context';
import { useFormAction, type Checked } from '../../hooks/use-form-action';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';
import { AuthForm } from './auth-form';

type Challenge = SecondStepChallenge['secondStep'];

interface SecondStepFormProps {
  challenge: Challenge;
  /** Back to the password form (a flow lasts 5 minutes; one that has expired needs the password again). */
  onRestart: () => void;
  /**
   * Where a passkey can give the step when `challenge.methods` has 'passkey': the passkey sign-in's button
   * for this flow (it signs in through POST /api/auth/second-step/passkey).
   */
  passkey?: ((flow: string) => ReactNode) | undefined;
}

const CODE_FIELD = { code: 'second-step-code' };
const twoStep = new SecondStepClient(dojo.transport);

const requireCode = (values: { code: string }): Checked<{ code: string }> =>
  values.code.trim()
    ? { data: { code: values.code.trim() } }
    : { fields: { code: secondStepMessages.codeRequired } };

/** The login's second step: a code from the app or a recovery code, a passkey, or setting up TOTP when the team requires it. */
export function SecondStepForm({ challenge, onRestart, passkey }: SecondStepFormProps) {
  if (challenge.enrol) return <EnrolAtLogin flow={challenge.flow} onRestart={onRestart} />;
  const hasCodes = challenge.methods.includes('totp');
  const passkeyButton = challenge.methods.includes('passkey') ? passkey?.(challenge.flow) : undefined;
  return hasCodes ? (
    <CodeStep flow={challenge.flow} onRestart={onRestart} passkeyButton={passkeyButton} />
  ) : (
    <div className="auth-form">
      <PageTitle className="auth-title">Two-step sign-in</PageTitle>
      <p>Use your passkey to finish signing in.</p>
      {passkeyButton}
      <RestartLink onRestart={onRestart} />
    </div>
  );
}

function RestartLink({ onRestart }: { onRestart: () => void }) {
  return (
    <p className="auth-links">
      <button className="text-button" type="button" onClick={onRestart}>
        Back to login
      </button>
    </p>
  );
}

function CodeStep({
  flow,
  onRestart,
  passkeyButton,
}: {
  flow: string;
  onRestart: () => void;
  passkeyButton: ReactNode;
}) {
  const { dispatch } = useAuthContext();
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');
  // Straight to the code box, when the password was just accepted (this runs after the title's own focus on
  // mount) and when the box changes between app and recovery codes.
  useEffect(() => document.getElementById(CODE_FIELD.code)?.focus(), [useRecovery]);
  const form = useFormAction({
    check: requireCode,
    send: async (input: { code: string }) => {
      dispatch({ type: 'LOGIN', payload: await dojo.auth.completeSecondStep({ flow, code: input.code }) });
    },
    fields: CODE_FIELD,
    shownBelow: ['code'],
  });
  return (
    <AuthForm name="second-step" title="Two-step sign-in" onSubmit={(event) => form.submit(event, { code })}>
      <p>
        {useRecovery
          ? 'Enter one of the recovery codes you saved when you turned on two-step sign-in. Each works once.'
          : 'Enter the 6-digit code from your authenticator app.'}
      </p>
      {useRecovery ? (
        <OneTimeCodeField
          key="recovery"
          id={CODE_FIELD.code}
          label="Recovery code:"
          inputMode="text"
          autoComplete="off"
          {...form.textField('code', code, setCode)}
        />
      ) : (
        <OneTimeCodeField
          key="totp"
          id={CODE_FIELD.code}
          label="Code from your authenticator app:"
          {...form.textField('code', code, setCode)}
        />
      )}
      <FormSubmit form={form} label="Verify" pendingLabel="Checking..." />
      <p className="auth-links">
        <button
          className="text-button"
          type="button"
          onClick={() => {
            setUseRecovery(!useRecovery);
            setCode('');
          }}
        >
          {useRecovery ? 'Use a code from your app' : 'Use a recovery code'}
        </button>
      </p>
      {passkeyButton}
      <RestartLink onRestart={onRestart} />
    </AuthForm>
  );
}

/** The team requires a second step and the account has none: set up TOTP now, then see the recovery codes once. */
function EnrolAtLogin({ flow, onRestart }: { flow: string; onRestart: () => void }) {
  const { dispatch } = useAuthContext();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);
  const [finish, setFinish] = useState<{ codes: string[]; signIn: () => void } | null>(null);
  const [code, setCode] = useState('');
  const form = useFormAction({
    check: requireCode,
    send: async (input: { code: string }) => {
      const enrolled = await twoStep.confirmTotpAtLogIn(dojo.auth, { flow, code: input.code });
      setFinish({
        codes: enrolled.recoveryCodes,
        signIn: () => dispatch({ type: 'LOGIN', payload: enrolled.signIn() }),
      });
    },
    fields: CODE_FIELD,
    shownBelow: ['code'],
  });

  if (finish) {
    return (
      <div className="auth-form">
        <PageTitle className="auth-title">Two-step sign-in is on</PageTitle>
        <RecoveryCodeList
          codes={finish.codes}
          doneLabel="I have saved them: continue"
          onDone={finish.signIn}
        />
      </div>
    );
  }

  const start = async () => {
    if (starting) return;
    setStarting(true);
    setStartError(null);
    try {
      setEnrolment(await twoStep.startTotpAtLogIn(flow));
    } catch (caught) {
      setStartError(errorMessage(caught));
    } finally {
      setStarting(false);
    }
  };

  return (
    <AuthForm
      name="second-step"
      title="Set up two-step sign-in"
      onSubmit={(event) =>
        enrolment ? form.submit(event, { code }) : (event.preventDefault(), void start())
      }
    >
      <p>
        Your team requires a second step when you log in with a password. Set up an authenticator app to
        continue.
      </p>
      {enrolment ? (
        <>
          <TotpSecret enrolment={enrolment} />
          <OneTimeCodeField
            id={CODE_FIELD.code}
            label="Then enter the 6-digit code the app shows:"
            {...form.textField('code', code, setCode)}
          />
          <FormSubmit form={form} label="Turn on and sign in" pendingLabel="Checking..." />
        </>
      ) : (
        <>
          <button className="btn" type="submit" aria-disabled={starting || undefined}>
            {starting ? 'Preparing...' : 'Set up an authenticator app'}
          </button>
          <ErrorAlert message={startError} />
        </>
      )}
      <RestartLink onRestart={onRestart} />
    </AuthForm>
  );
}
