import { useRef, useState } from 'react';
import { DisplayNameSchema, type AuthUser, type FieldErrors } from '../../../common';
import { Avatar } from '../../components/avatar';
import { Field } from '../../components/field';
import { FormSubmit } from '../../components/form-alert';
import { ThumbnailPreview } from '../../components/thumbnail-preview';
import { useFormAction, type Checked } from '../../hooks/use-form-action';
import { useThumbnailPick } from '../../hooks/use-thumbnail-pick';
import { dojo } from '../../lib/dojo-client';
import { checkThumbnailFile } from '../../lib/thumbnail-file';

const FIELDS = { displayName: 'profile-display-name', thumbnail: 'profile-thumbnail' };

interface ProfileValues {
  displayName: string;
  thumbnail: File | null;
}

interface ProfileData {
  displayName: string;
  thumbnail: File | undefined;
}

/** The signup rules: the same display name check, and a new avatar (optional here) like the thumbnail. */
async function checkProfile(values: ProfileValues): Promise<Checked<ProfileData>> {
  const fields: FieldErrors = {};
  const name = DisplayNameSchema.safeParse(values.displayName);
  if (!name.success) fields.displayName = name.error.issues[0]?.message ?? '';
  const thumbnailProblem = values.thumbnail ? await checkThumbnailFile(values.thumbnail) : null;
  if (thumbnailProblem) fields.thumbnail = thumbnailProblem;
  if (!name.success || thumbnailProblem) return { fields };
  return { data: { displayName: name.data, thumbnail: values.thumbnail ?? undefined } };
}

/** Display name and avatar; the sidebar shows the new ones as soon as they are saved. */
export function ProfileForm({ user }: { user: AuthUser }) {
  const [displayName, setDisplayName] = useState(user.displayName);
  const [saved, setSaved] = useState<string | null>(null);
  const fileInputRef = useRef<HTMLInputElement>(null);
  const form = useFormAction({
    check: checkProfile,
    send: async ({ displayName: name, thumbnail: file }: ProfileData) => {
      setSaved(null);
      const updated = await dojo.account.updateProfile({ displayName: name, thumbnail: file });
      setDisplayName(updated.displayName);
      thumbnail.clear();
      if (fileInputRef.current) fileInputRef.current.value = '';
      setSaved('Profile saved.');
    },
    fields: FIELDS,
    shownBelow: ['displayName'],
    repeatBelow: ['thumbnail'],
  });
  const thumbnail = useThumbnailPick((problem) => form.setFieldError('thumbnail', problem));

  return (
    <section className="card" aria-labelledby="profile-heading">
      <h2 id="profile-heading">Profile</h2>
      <form
        className="settings-form"
        onSubmit={(event) => form.submit(event, { displayName, thumbnail: thumbnail.file })}
        noValidate
        aria-labelledby="profile-heading"
      >
        <div className="settings-current-avatar">
          <Avatar src={user.photoURL} name={user.displayName} decorative size={64} />
          <span>Your current avatar</span>
        </div>
        <Field
          id={FIELDS.displayName}
          label="Display name:"
          type="text"
          autoComplete="nickname"
          required
          {...form.textField('displayName', displayName, (value) => {
            setDisplayName(value);
            setSaved(null);
          })}
        />
        <Field
          id={FIELDS.thumbnail}
          ref={fileInputRef}
          label="New avatar (optional):"
          name="thumbnail"
          type="file"
          accept="image/*"
          {...form.fieldError('thumbnail')}
          onChange={(event) => {
            setSaved(null);
            void thumbnail.onChange(event);
          }}
        />
        <ThumbnailPreview url={thumbnail.previewUrl} alt="New avatar preview" />
        <FormSubmit form={form} label="Save profile" pendingLabel="Saving..." />
        <div className="form-status" role="status">
          {saved && <p>{saved}</p>}
        </div>
      </form>
    </section>
  );
}
