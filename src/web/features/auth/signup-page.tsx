import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { IMAGE_SNIFF_BYTES, SignupFieldsSchema, checkThumbnail, messages } from '../../../common';
import { Field } from '../../components/field';
import { CredentialFields } from './credential-fields';
import { FormAlert, SubmitButton } from '../../components/form-alert';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { checkWith, useFormAction } from '../../hooks/use-form-action';
import { useSignup } from './use-signup';
import './auth-form.css';

const FIELDS = {
  email: 'signup-email',
  password: 'signup-password',
  displayName: 'signup-display-name',
  thumbnail: 'signup-thumbnail',
};

interface SignupValues {
  email: string;
  password: string;
  displayName: string;
  thumbnail: File | null;
}

const checkFields = checkWith(SignupFieldsSchema);

/** The thumbnail rule of docs/product-spec.md#52-signup-thumbnail, judged by the file's first bytes like the server does. */
async function checkFile(file: File | null): Promise<string | null> {
  if (!file) return checkThumbnail({ size: undefined, head: undefined });
  try {
    const head = new Uint8Array(await file.slice(0, IMAGE_SNIFF_BYTES).arrayBuffer());
    return checkThumbnail({ size: file.size, head });
  } catch {
    // The file could not be read (moved or deleted since it was picked).
    return messages.thumbnailRequired;
  }
}

async function checkSignup({ thumbnail, ...values }: SignupValues) {
  const fields = checkFields(values);
  const thumbnailProblem = await checkFile(thumbnail);
  if ('data' in fields && thumbnail && !thumbnailProblem) {
    return { data: { ...fields.data, thumbnail } };
  }
  const problems = 'fields' in fields ? fields.fields : {};
  return { fields: thumbnailProblem ? { ...problems, thumbnail: thumbnailProblem } : problems };
}

export function SignupPage() {
  useDocumentTitle('Sign up');
  const { signup, uploadProgress } = useSignup();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [thumbnail, setThumbnail] = useState<File | null>(null);
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const previewUrlRef = useRef<string | null>(null);
  // Reading a file is asynchronous: only the latest pick may set the message and the preview.
  const checkRunRef = useRef(0);
  const form = useFormAction({
    check: checkSignup,
    send: signup,
    fields: FIELDS,
    shownBelow: ['email', 'password', 'displayName'],
  });

  const replacePreview = (file: File | null) => {
    if (previewUrlRef.current) URL.revokeObjectURL(previewUrlRef.current);
    previewUrlRef.current = file ? URL.createObjectURL(file) : null;
    setPreviewUrl(previewUrlRef.current);
  };

  useEffect(
    () => () => {
      if (previewUrlRef.current) URL.revokeObjectURL(previewUrlRef.current);
      previewUrlRef.current = null;
    },
    [],
  );

  const handleFileChange = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0] ?? null;
    const run = ++checkRunRef.current;
    setThumbnail(file);
    replacePreview(null);
    const problem = await checkFile(file);
    if (run !== checkRunRef.current) return;
    form.setFieldError('thumbnail', problem ?? undefined);
    replacePreview(problem ? null : file);
  };

  return (
    <form
      className="auth-form"
      onSubmit={(event) => form.submit(event, { email, password, displayName, thumbnail })}
      noValidate
      aria-labelledby="signup-heading"
    >
      <h2 id="signup-heading">sign up</h2>
      <CredentialFields
        ids={FIELDS}
        email={[email, setEmail]}
        password={[password, setPassword]}
        passwordAutoComplete="new-password"
        textField={form.textField}
      />
      <Field
        id={FIELDS.displayName}
        label="display name:"
        type="text"
        autoComplete="nickname"
        required
        {...form.textField('displayName', displayName, setDisplayName)}
      />
      <Field
        id={FIELDS.thumbnail}
        label="Profile thumbnail:"
        name="thumbnail"
        type="file"
        accept="image/*"
        required
        {...form.fieldError('thumbnail')}
        onChange={(event) => void handleFileChange(event)}
      />
      {previewUrl && (
        <img
          className="thumbnail-preview"
          src={previewUrl}
          alt="Profile thumbnail preview"
          width={80}
          height={80}
        />
      )}
      {uploadProgress !== null && (
        <div className="upload-progress">
          <label htmlFor="signup-upload-progress">Uploading profile thumbnail</label>
          <progress id="signup-upload-progress" max={100} value={Math.round(uploadProgress * 100)}>
            {Math.round(uploadProgress * 100)}%
          </progress>
        </div>
      )}
      <SubmitButton pending={form.isPending}>{form.isPending ? 'loading' : 'Sign up'}</SubmitButton>
      <FormAlert lines={form.alert} />
    </form>
  );
}
