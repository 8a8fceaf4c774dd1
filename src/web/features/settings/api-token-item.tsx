import { useId } from 'react';
import type { ApiToken } from '../../../common/api-tokens';
import { BusyButton } from '../../components/busy-button';
import { ConfirmInPlace, useInPlace } from '../../components/confirm-in-place';
import { DayFact, LastTimeFact } from './item-facts';

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
  const confirmation = useInPlace();
  const { trigger } = confirmation;

  return (
    <li className="session-item api-token-item">
      <div className="session-facts">
        <span id={nameId} className="session-device">
          {token.name}
        </span>
        <span className="api-token-scope">{scopeText(token.scope)}</span>
        <DayFact label="Created" at={token.createdAt} />
        <DayFact label="Expires" at={token.expiresAt} />
        <LastTimeFact label="Last used" at={token.lastUsedAt} never="Never used" />
      </div>
      {!confirmation.open && (
        <BusyButton
          ref={trigger}
          className="btn"
          aria-describedby={nameId}
          busy={busy}
          onClick={confirmation.show}
        >
          Revoke
        </BusyButton>
      )}
      {confirmation.open && (
        <ConfirmInPlace
          kind="api-token"
          confirmation={confirmation}
          question={`Revoke "${token.name}"?`}
          warning="Every script using it is refused at once. This cannot be undone."
          busy={busy}
          action={revoking ? 'Revoking...' : 'Yes, revoke'}
          onConfirm={() => onRevoke(token)}
        />
      )}
    </li>
  );
}
