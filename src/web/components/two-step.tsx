import { useEffect, useRef } from 'react';
import { groupSecret, type TotpEnrolment } from '../../common/second-step';
import { Field, type InputFieldProps } from './field';
import './two-step.css';

/**
 * Pieces of two-step sign-in that settings and the login screen share (docs/decisions/064-two-step-sign-in.md).
 * Only those lazy screens import this file, and `common/second-step` by path, so neither reaches the first
 * page's bundle.
 */

/** A code box: a phone's keyboard shows digits, and the browser may fill in a code it received. */
export function OneTimeCodeField(props: InputFieldProps) {
  return (
    <Field
      type="text"
      inputMode="numeric"
      autoComplete="one-time-code"
      autoCapitalize="off"
      spellCheck={false}
      required
      {...props}
    />
  );
}

/**
 * The new secret, shown once: the QR code to scan, and the same secret as text in groups of four for an
 * app that cannot scan (the picture's text alternative points at it).
 */
export function TotpSecret({ enrolment }: { enrolment: TotpEnrolment }) {
  const src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qrSvg)}`;
  return (
    <div className="totp-secret">
      <img
        className="totp-qr"
        src={src}
        width={200}
        height={200}
        alt="QR code for your authenticator app. If you cannot scan it, type the setup key shown next to it."
      />
      <div>
        <p>
          Scan the QR code with an authenticator app (such as Google Authenticator, Microsoft Authenticator,
          1Password or Aegis), or type this setup key into it:
        </p>
        <p>
          <code className="totp-key" data-testid="totp-secret" aria-label={`Setup key: ${enrolment.secret}`}>
            {groupSecret(enrolment.secret)}
          </code>
        </p>
        <p className="totp-hint">Time-based, 6 digits, every 30 seconds.</p>
      </div>
    </div>
  );
}

/** The recovery codes, shown once; the heading takes focus so a screen reader starts reading them. */
export function RecoveryCodeList({
  codes,
  onDone,
  doneLabel,
}: {
  codes: string[];
  onDone: () => void;
  doneLabel: string;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <div className="recovery-codes">
      <h3 ref={headingRef} tabIndex={-1}>
        Your recovery codes
      </h3>
      <p>
        If you lose your phone, each of these codes signs you in once instead of a code from the app. Save
        them somewhere safe now: they are not shown again.
      </p>
      <ol className="recovery-code-list" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <button className="btn" type="button" onClick={onDone}>
        {doneLabel}
      </button>
    </div>
  );
}
