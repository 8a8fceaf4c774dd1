import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import {
  IMAGE_SNIFF_BYTES,
  SignupFieldsSchema,
  checkThumbnail,
  messages,
  type FieldErrors,
} from '../../../common';
import { fieldErrorsFromIssues, focusFirstInvalid } from '../../lib/error-message';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { FormField } from '../../components/form-field';
import { useSignup } from './use-signup';
import './auth-form.css';

const TEXT_FIELDS = ['email', 'password', 'displayName'] as const;

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

export function SignupPage() {
  useDocumentTitle('Sign up');
  const { signup, error, isPending, uploadProgress } = useSignup();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [thumbnail, setThumbnail] = useState<File | null>(null);
  const [thumbnailError, setThumbnailError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const previewUrlRef = useRef<string | null>(null);
  // Reading a file is asynchronous: only the latest pick may set the message and the preview.
  const checkRunRef = useRef(0);
  const submittingRef = useRef(false);

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

  const clearFieldError = (name: string) =>
    setFieldErrors((current) => {
      if (!(name in current)) return current;
      const { [name]: _removed, ...rest } = current;
      return rest;
    });

  const handleFileChange = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0] ?? null;
    const run = ++checkRunRef.current;
    setThumbnail(file);
    replacePreview(null);
    const problem = await checkFile(file);
    if (run !== checkRunRef.current) return;
    setThumbnailError(problem);
    replacePreview(problem ? null : file);
  };

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // The file check below is asynchronous: a second click meanwhile must not submit twice.
    if (isPending || submittingRef.current) return;
    submittingRef.current = true;
    try {
      const form = event.currentTarget;
      const parsed = SignupFieldsSchema.safeParse({ email, password, displayName });
      const problems = parsed.success ? {} : fieldErrorsFromIssues(parsed.error.issues);
      const thumbnailProblem = await checkFile(thumbnail);
      setFieldErrors(problems);
      setThumbnailError(thumbnailProblem);
      if (!parsed.success || thumbnailProblem || !thumbnail) {
        focusFirstInvalid(form, thumbnailProblem ? { ...problems, thumbnail: thumbnailProblem } : problems);
        return;
      }
      await signup(parsed.data, thumbnail);
    } finally {
      submittingRef.current = false;
    }
  };

  // Server messages per field go under the field; one that repeats the main message is not said twice.
  const serverFields = error?.fields ?? {};
  const serverFieldError = (name: string): string | undefined => {
    const message = serverFields[name];
    return message && message !== error?.message ? message : undefined;
  };
  const otherServerMessages = Object.entries(serverFields)
    .filter(
      ([name, message]) => !(TEXT_FIELDS as readonly string[]).includes(name) && message !== error?.message,
    )
    .map(([, message]) => message)
    .filter((message) => message !== thumbnailError);
  const alerts = [thumbnailError, error?.message, ...otherServerMessages].filter(
    (message): message is string => Boolean(message),
  );

  return (
    <form
      className="auth-form"
      onSubmit={(event) => void handleSubmit(event)}
      noValidate
      aria-labelledby="signup-heading"
    >
      <h2 id="signup-heading">sign up</h2>
      <FormField
        id="signup-email"
        label="email:"
        name="email"
        type="email"
        autoComplete="email"
        required
        value={email}
        error={fieldErrors.email ?? serverFieldError('email')}
        onChange={(event) => {
          setEmail(event.target.value);
          clearFieldError('email');
        }}
      />
      <FormField
        id="signup-password"
        label="password:"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        value={password}
        error={fieldErrors.password ?? serverFieldError('password')}
        onChange={(event) => {
          setPassword(event.target.value);
          clearFieldError('password');
        }}
      />
      <FormField
        id="signup-display-name"
        label="display name:"
        name="displayName"
        type="text"
        autoComplete="nickname"
        required
        value={displayName}
        error={fieldErrors.displayName ?? serverFieldError('displayName')}
        onChange={(event) => {
          setDisplayName(event.target.value);
          clearFieldError('displayName');
        }}
      />
      <FormField
        id="signup-thumbnail"
        label="Profile thumbnail:"
        name="thumbnail"
        type="file"
        accept="image/*"
        required
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
      <button className="btn" type="submit" disabled={isPending}>
        {isPending ? 'loading' : 'Sign up'}
      </button>
      {alerts.length > 0 && (
        <div className="error form-alert" role="alert">
          {alerts.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </div>
      )}
    </form>
  );
}
