import type { Member } from '../../../common';
import { Avatar } from '../../components/avatar';
import { BusyButton } from '../../components/busy-button';
import { absoluteTime, relativeTime } from '../../lib/time-format';

/** 'second-step': turn off the member's TOTP, when they lost the app and the codes (decision 064). */
export type MemberAction = 'role' | 'status' | 'reset' | 'second-step';

interface MemberRowProps {
  member: Member;
  isSelf: boolean;
  /** The action on its way for this member, if any. */
  pending: MemberAction | null;
  onAction: (member: Member, action: MemberAction) => void;
}

/** One member of the members table, with what an admin can do to them. */
export function MemberRow({ member, isSelf, pending, onAction }: MemberRowProps) {
  const busy = pending !== null;
  const active = member.status === 'active';
  return (
    <tr className={active ? undefined : 'member-deactivated'} role="row">
      {/* Focusable from script only: 'Show more' moves focus to the first added member. */}
      <th scope="row" role="rowheader" tabIndex={-1}>
        <span className="member-name">
          <Avatar src={member.photoURL} name={member.displayName} decorative size={36} />
          <span>
            {member.displayName}
            {isSelf && <span className="member-self"> (you)</span>}
          </span>
        </span>
      </th>
      <td role="cell" className="member-email" data-label="Email">
        {member.email}
      </td>
      <td role="cell" data-label="Role">
        {member.role === 'admin' ? 'Admin' : 'Member'}
      </td>
      <td role="cell" data-label="Online">
        <span className="member-online">
          {member.online && <span className="online-dot" aria-hidden="true" />}
          {member.online ? 'Online' : 'Offline'}
        </span>
      </td>
      <td role="cell" data-label="Last active">
        {member.lastActiveAt ? (
          <time dateTime={member.lastActiveAt} title={absoluteTime(member.lastActiveAt)}>
            {relativeTime(member.lastActiveAt)}
          </time>
        ) : (
          'Never'
        )}
      </td>
      <td role="cell" data-label="Status">
        {active ? 'Active' : 'Deactivated'}
      </td>
      <td role="cell" data-label="Actions">
        <div className="member-actions">
          <BusyButton className="btn btn-small" busy={busy} onClick={() => onAction(member, 'role')}>
            {pending === 'role' ? 'Saving...' : member.role === 'admin' ? 'Make member' : 'Make admin'}
          </BusyButton>
          <BusyButton className="btn btn-small" busy={busy} onClick={() => onAction(member, 'status')}>
            {pending === 'status' ? 'Saving...' : active ? 'Deactivate' : 'Reactivate'}
          </BusyButton>
          <BusyButton className="btn btn-small" busy={busy} onClick={() => onAction(member, 'reset')}>
            {pending === 'reset' ? 'Creating...' : 'Reset link'}
          </BusyButton>
          <BusyButton className="btn btn-small" busy={busy} onClick={() => onAction(member, 'second-step')}>
            {pending === 'second-step' ? 'Saving...' : 'Turn off two-step'}
          </BusyButton>
        </div>
      </td>
    </tr>
  );
}
