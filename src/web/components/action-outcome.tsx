/**
 * Where the outcome of an action on a list's row is said: its problem in an alert region, its result in a
 * status region. Both are always there, so that what appears in them is announced.
 */
export function ActionOutcome({ error, status }: { error: string | null; status: string | null }) {
  return (
    <>
      <div className="error-region" role="alert">
        {error && <p className="error">{error}</p>}
      </div>
      <div className="form-status" role="status">
        {status && <p>{status}</p>}
      </div>
    </>
  );
}
