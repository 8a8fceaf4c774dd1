import { useState } from 'react';
import {
  CreateInvitationSchema,
  type CreatedInvitation,
  type CreateInvitationInput,
  type Invitation,
} from '../../../common';
import { Field } from '../../components/field';
import { FormAlert, SubmitButton } from '../../components/form-alert';
import { checkWith, useFormAction } from '../../hooks/use-form-action';
import { dojo } from '../../lib/dojo-client';
import { formatDate } from '../../lib/time-format';
import { CopyLink } from './copy-link';

const FIELDS = { maxUses: 'invitation-uses', expiresInDays: 'invitation-days', email: 'invitation-email' };

const checkInvitation = checkWith(CreateInvitationSchema);

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
    <section className="admin-card" aria-labelledby="invite-heading">
      <h2 id="invite-heading">Create an invitation</h2>
      <form
        onSubmit={(event) => form.submit(event, { maxUses, expiresInDays, email })}
        noValidate
        aria-labelledby="invite-heading"
      >
        <div className="admin-form-row">
          <Field
            id={FIELDS.maxUses}
            label="Uses:"
            type="number"
            inputMode="numeric"
            min={1}
            required
            {...form.textField('maxUses', maxUses, setMaxUses)}
          />
          <Field
            id={FIELDS.expiresInDays}
            label="Expires in (days):"
            type="number"
            inputMode="numeric"
            min={1}
            required
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
        <SubmitButton pending={form.isPending}>
          {form.isPending ? 'Creating...' : 'Create invitation'}
        </SubmitButton>
        <FormAlert lines={form.alert} />
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
