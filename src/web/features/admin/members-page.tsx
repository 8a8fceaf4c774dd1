import { useRef, useState } from 'react';
import { messages, type Member, type PasswordResetLink } from '../../../common';
import { useAuthContext } from '../../hooks/use-auth-context';
import { useCursorPages, type CursorPage } from '../../hooks/use-cursor-pages';
import { useDebouncedValue } from '../../hooks/use-debounced-value';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { dojo } from '../../lib/dojo-client';
import { SecondStepClient } from '../../../sdk/second-step';
import { formatDate } from '../../lib/time-format';
import { AdminTable } from './admin-table';
import { CopyLink } from './copy-link';
import { MemberRow, type MemberAction } from './member-row';
import './admin.css';
import { ActionOutcome, useRowAction } from '../../components/action-outcome';
import { ErrorAlert } from '../../components/error-alert';
import { PageTitle } from '../../components/page-title';
import { ShowMoreButton } from '../../components/show-more-button';

const MEMBER_COLUMNS = ['Name', 'Email', 'Role', 'Online', 'Last active', 'Status', 'Actions'];

/** The server is asked once typing pauses this long, not on every keystroke. */
const SEARCH_DELAY_MS = 250;

/** Members matching `search` (by name or email, on the server). */
const membersPage = (search: string, after: string | null): Promise<CursorPage<Member>> =>
  dojo.admin
    .listMembers({ search, after })
    .then((page) => ({ items: page.members, nextCursor: page.nextCursor }));

function runAction(member: Member, action: Exclude<MemberAction, 'reset' | 'second-step'>): Promise<Member> {
  if (action === 'role') return dojo.admin.setRole(member.id, member.role === 'admin' ? 'member' : 'admin');
  return member.status === 'active' ? dojo.admin.deactivate(member.id) : dojo.admin.reactivate(member.id);
}

/** Said after the change: `before` is the row as it was, `after` as the server answered. */
function describe(
  before: Member,
  after: Member,
  action: Exclude<MemberAction, 'reset' | 'second-step'>,
): string {
  const done =
    action === 'role'
      ? `${after.displayName} is now ${after.role === 'admin' ? 'an admin' : 'a member'}.`
      : `${after.displayName} is ${after.status === 'active' ? 'reactivated' : 'deactivated'}.`;
  return endsAdminLinks(before, action)
    ? `${done} Invitations and reset links made by ${after.displayName} no longer work.`
    : done;
}

/** Whether the action takes an admin's role away, and with it the links they made (decision 046). */
const endsAdminLinks = (member: Member, action: Exclude<MemberAction, 'reset' | 'second-step'>): boolean =>
  member.role === 'admin' && (action === 'role' || member.status === 'active');

/** Everyone with an account: roles, deactivation and reset links (admins only). */
export function MembersPage() {
  useDocumentTitle('Members');
  const { user } = useAuthContext();
  const [typed, setTyped] = useState('');
  const search = useDebouncedValue(typed.trim(), SEARCH_DELAY_MS);
  const tbodyRef = useRef<HTMLTableSectionElement>(null);
  const list = useCursorPages({
    query: search,
    fetchPage: membersPage,
    listRef: tbodyRef,
    itemSelector: 'th[scope="row"]',
  });
  const members = list.items;
  const { pending, run, ...outcome } = useRowAction<MemberAction>();
  const [resetLink, setResetLink] = useState<{ member: Member; link: PasswordResetLink } | null>(null);
  const resetRef = useRef<HTMLDivElement>(null);

  const act = (member: Member, action: MemberAction) =>
    run(member.id, action, async () => {
      if (action === 'second-step') {
        await new SecondStepClient(dojo.transport).resetMember(member.id);
        return `Two-step sign-in is off for ${member.displayName}: their password alone signs in, or sets it up again where the team requires it.`;
      }
      if (action === 'reset') {
        const link = await dojo.admin.createPasswordReset(member.id);
        setResetLink({ member, link });
        // The link is shown above the table: focus goes to it so it is found at once.
        requestAnimationFrame(() => resetRef.current?.querySelector('input')?.focus());
        return `Reset link created for ${member.displayName}.`;
      }
      const updated = await runAction(member, action);
      list.update((rows) => rows.map((row) => (row.id === updated.id ? updated : row)));
      return describe(member, updated, action);
    });

  return (
    <div className="admin-page">
      <PageTitle>Members</PageTitle>
      <div className="admin-search form-field">
        <label htmlFor="members-search">Search members by name or email:</label>
        <input
          id="members-search"
          type="search"
          autoComplete="off"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
        />
      </div>
      <ErrorAlert message={list.error} />
      <ActionOutcome {...outcome} />
      {resetLink && (
        <div className="card" ref={resetRef}>
          <CopyLink
            key={resetLink.link.url}
            id="member-reset-link"
            label={`Password reset link for ${resetLink.member.displayName}`}
            url={resetLink.link.url}
          />
          <p className="admin-hint">
            Send it to them yourself. It works once, until {formatDate(resetLink.link.expiresAt)}.
          </p>
        </div>
      )}
      <p className="admin-hint">
        When an admin is made a member, deactivated or deletes their account, the invitations and reset links
        they made stop working.
      </p>
      {list.isPending && <p className="loading">{messages.loading}</p>}
      {members && members.length === 0 && <p>No members match this search.</p>}
      {members && members.length > 0 && (
        <AdminTable
          id="members"
          caption={search ? `Members matching "${search}"` : 'All members'}
          columns={MEMBER_COLUMNS}
          bodyRef={tbodyRef}
        >
          {members.map((member) => (
            <MemberRow
              key={member.id}
              member={member}
              isSelf={member.id === user?.uid}
              pending={pending?.id === member.id ? pending.action : null}
              onAction={(row, action) => void act(row, action)}
            />
          ))}
        </AdminTable>
      )}
      {list.hasMore && (
        <ShowMoreButton className="admin-more" loading={list.loadingMore} onShowMore={list.showMore} />
      )}
    </div>
  );
}
