/** A problem, said at once (an alert) where it happened; nothing while there is none. */
export function ErrorAlert({ message }: { message: string | null | undefined }) {
  return message ? (
    <p className="error" role="alert">
      {message}
    </p>
  ) : null;
}
