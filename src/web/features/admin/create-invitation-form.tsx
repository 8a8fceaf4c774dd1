import { useState } from 'react';
import {
  CreateInvitationSchema,
  type CreatedInvitation,
  type CreateInvitationInput,
  type Invitation,
} from '../../../common';
import { Field, type InputFieldProps } from '../../components/field';
import { FormSubmit } from '../../components/form-alert';
import { checkWith, useFormAction } from '../../hooks/use-form-action';
import { dojo } from '../../lib/dojo-client';
import { formatDate } from '../../lib/time-format';
import { CopyLink } from './copy-link';

const FIELDS = { maxUses: 'invitation-uses', expiresInDays: 'invitation-days', email: 'invitation-email' };

const checkInvitation = checkWith(CreateInvitationSchema);

/** How many uses, or days, an invitation gets: a whole number from one up. */
function CountField(props: InputFieldProps) {
  return <Field type="number" inputMode="numeric" min={1} required {...props} />;
}

/** A new invitation link; it is shown this once (the server keeps only its hash). */
export function CreateInvitationForm({ onCreated }: { onCreated: (invitation: Invitation) => void }) {
  const [maxUses, setMaxUses] = useState('1');
  const [expiresInDays, setExpiresInDays] = useState('7');
  const [email, setEmail] = useState('');
  const [created, setCreated] = useState<CreatedInvitation | null>(null);
  const form = useFormAction({
    check: checkInvitation,
    send: async (input: CreateInvitationInput) => {
      setCreated(null);
      const result = await dojo.admin.createInvitation(input);
      setCreated(result);
      onCreated(result.invitation);
      requestAnimationFrame(() => document.getElementById('invitation-link')?.focus());
    },
    fields: FIELDS,
    shownBelow: ['maxUses', 'expiresInDays', 'email'],
  });

  return (
    <section className="card" aria-labelledby="invite-heading">
      <h2 id="invite-heading">Create an invitation</h2>
      <form
        onSubmit={(event) => form.submit(event, { maxUses, expiresInDays, email })}
        noValidate
        aria-labelledby="invite-heading"
      >
        <div className="admin-form-row">
          <CountField id={FIELDS.maxUses} label="Uses:" {...form.textField('maxUses', maxUses, setMaxUses)} />
          <CountField
            id={FIELDS.expiresInDays}
            label="Expires in (days):"
            {...form.textField('expiresInDays', expiresInDays, setExpiresInDays)}
          />
        </div>
        <Field
          id={FIELDS.email}
          label="Only for this email address (optional):"
          type="email"
          autoComplete="off"
          {...form.textField('email', email, setEmail)}
        />
        <FormSubmit form={form} label="Create invitation" pendingLabel="Creating..." />
      </form>
      <div className="form-status" role="status">
        {created && <p>Invitation created. Copy the link now: it is shown only once.</p>}
      </div>
      {created && (
        <div className="created-link">
          <CopyLink key={created.url} id="invitation-link" label="Invitation link" url={created.url} />
          <p className="admin-hint">
            {created.invitation.email ? `For ${created.invitation.email}, ` : 'For anyone, '}
            {created.invitation.maxUses === 1 ? 'one use' : `${created.invitation.maxUses} uses`}, until{' '}
            {formatDate(created.invitation.expiresAt)}.
          </p>
        </div>
      )}
    </section>
  );
}
