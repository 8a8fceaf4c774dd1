import { useRef, useState } from 'react';

/**
 * A link shown once (an invitation, a password reset): a read-only field to select it from and a button
 * that copies it. The copy's outcome is announced.
 */
export function CopyLink({ id, label, url }: { id: string; label: string; url: string }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<string | null>(null);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied('Copied to the clipboard.');
    } catch {
      // No clipboard access (an insecure origin, a refused permission): the text is selected instead.
      inputRef.current?.select();
      setCopied('Could not copy: the link is selected, copy it with your keyboard.');
    }
  };

  return (
    <div className="copy-link">
      <label htmlFor={id}>{label}</label>
      <div className="copy-link-row">
        <input
          id={id}
          ref={inputRef}
          type="text"
          readOnly
          value={url}
          onFocus={(event) => event.target.select()}
        />
        <button className="btn" type="button" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <p className="copy-link-status" role="status">
        {copied}
      </p>
    </div>
  );
}
