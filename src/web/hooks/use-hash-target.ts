import { useEffect, type RefObject } from 'react';
import { useLocation } from 'react-router';

/**
 * Lands on the element a URL hash names (`/projects/x#comment-y`, from a notification) once it has been
 * rendered inside `container`: scrolled into view and focused, once per hash, so live updates later do
 * not pull the reader back.
 */
export function useHashTarget(container: RefObject<HTMLElement | null>, renderedKey: unknown): void {
  const { hash } = useLocation();
  useEffect(() => {
    const id = decodeURIComponent(hash.slice(1));
    if (!id || landed.has(hash)) return;
    const element = container.current?.querySelector(`[id="${CSS.escape(id)}"]`);
    if (!(element instanceof HTMLElement)) return;
    landed.add(hash);
    element.scrollIntoView({ block: 'center' });
    element.focus({ preventScroll: true });
  }, [hash, container, renderedKey]);
}

const landed = new Set<string>();
