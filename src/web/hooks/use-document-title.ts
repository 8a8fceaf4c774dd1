import { useEffect } from 'react';

export const APP_NAME = 'The Dojo';

/** Gives every screen a real title (docs/product-spec.md#flaw-18), e.g. "Dashboard · The Dojo". */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · ${APP_NAME}`;
  }, [title]);
}
