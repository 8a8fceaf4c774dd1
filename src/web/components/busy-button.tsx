import type { ReactNode, Ref } from 'react';

interface BusyButtonProps {
  /** An action it started (or one beside it) is under way. */
  busy: boolean;
  onClick: () => void;
  className: string;
  children: ReactNode;
  ref?: Ref<HTMLButtonElement>;
  'aria-describedby'?: string;
}

/**
 * A button that refuses clicks while `busy` but stays focusable (`aria-disabled`, not `disabled`), so
 * keyboard focus is not dropped to the page while the answer is awaited.
 */
export function BusyButton({ busy, onClick, className, children, ref, ...described }: BusyButtonProps) {
  return (
    <button
      ref={ref}
      className={className}
      type="button"
      {...described}
      aria-disabled={busy || undefined}
      onClick={() => {
        if (!busy) onClick();
      }}
    >
      {children}
    </button>
  );
}
