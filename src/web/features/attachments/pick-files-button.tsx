import { useRef } from 'react';

/**
 * A button that opens the file picker (the input itself stays hidden: a real button is what keyboards and
 * screen readers know). Several files at once.
 */
export function PickFilesButton({
  label,
  onFiles,
  describedBy,
}: {
  label: string;
  onFiles: (files: File[]) => void;
  describedBy?: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        className="btn attachment-button attachment-pick"
        aria-describedby={describedBy}
        onClick={() => input.current?.click()}
      >
        {label}
      </button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        aria-label={label}
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          // The same file may be picked again later (after a refusal, say).
          event.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
    </>
  );
}
