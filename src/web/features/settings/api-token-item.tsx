import { useEffect, useId, useRef, useState } from 'react';
import type { ApiToken } from '../../../common/api-tokens';
import { BusyButton } from '../../components/busy-button';
import { absoluteTime, formatDate, relativeTime } from '../../lib/time-format';

const scopeText = (scope: ApiToken['scope']): string => (scope === 'read' ? 'Read only' : 'Read and write');

/** One token of the list: what it is for and may do, when it ends and was last used; revoked after a confirm. */
export function ApiTokenItem({
  token,
  busy,
  revoking,
  onRevoke,
}: {
  token: ApiToken;
  /** Some token's revoke is under way: the buttons wait. */
  busy: boolean;
  revoking: boolean;
  onRevoke: (token: ApiToken) => void;
}) {
  const id = useId();
  const nameId = `${id}-name`;
  const questionId = `${id}-question`;
  const warningId = `${id}-warning`;
  const [confirming, setConfirming] = useState(false);
  const revokeRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  // Where focus goes once the confirmation has opened or closed (the elements exist only after the render).
  const focusAfter = useRef<'cancel' | 'revoke' | null>(null);

  useEffect(() => {
    const target = focusAfter.current;
    focusAfter.current = null;
    if (target === 'cancel') cancelRef.current?.focus();
    if (target === 'revoke') revokeRef.current?.focus();
  }, [confirming]);

  const cancel = () => {
    focusAfter.current = 'revoke';
    setConfirming(false);
  };

  return (
    <li className="session-item api-token-item">
      <div className="session-facts">
        <span id={nameId} className="session-device">
          {token.name}
        </span>
        <span className="api-token-scope">{scopeText(token.scope)}</span>
        <span className="session-seen">
          Created <time dateTime={token.createdAt}>{formatDate(token.createdAt)}</time>
        </span>
        <span className="session-seen">
          Expires <time dateTime={token.expiresAt}>{formatDate(token.expiresAt)}</time>
        </span>
        <span className="session-seen">
          {token.lastUsedAt ? (
            <>
              Last used{' '}
              <time dateTime={token.lastUsedAt} title={absoluteTime(token.lastUsedAt)}>
                {relativeTime(token.lastUsedAt)}
              </time>
            </>
          ) : (
            'Never used'
          )}
        </span>
      </div>
      {!confirming && (
        <BusyButton
          ref={revokeRef}
          className="btn"
          aria-describedby={nameId}
          busy={busy}
          onClick={() => {
            focusAfter.current = 'cancel';
            setConfirming(true);
          }}
        >
          Revoke
        </BusyButton>
      )}
      {confirming && (
        <div
          className="inset api-token-confirm"
          role="group"
          aria-labelledby={questionId}
          aria-describedby={warningId}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.stopPropagation();
              cancel();
            }
          }}
        >
          <p id={questionId} className="api-token-question">{`Revoke "${token.name}"?`}</p>
          <p id={warningId}>Every script using it is refused at once. This cannot be undone.</p>
          <div className="api-token-actions">
            <BusyButton className="btn btn-danger" busy={busy} onClick={() => onRevoke(token)}>
              {revoking ? 'Revoking...' : 'Yes, revoke'}
            </BusyButton>
            <button ref={cancelRef} className="btn" type="button" onClick={cancel}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </li>
  );
}
