import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router';

export interface PageTitleProps {
  children: ReactNode;
  id?: string | undefined;
  className?: string | undefined;
}

/**
 * A screen's own title, its one `h1`. After a navigation focus moves here, so a screen reader reads where
 * the user has landed instead of falling silent on `<body>` (or staying on the link that was clicked). The
 * first screen of a visit is not focused: the browser has just announced the page by its title.
 */
export function PageTitle({ children, id, className = 'page-title' }: PageTitleProps) {
  const ref = useRef<HTMLHeadingElement>(null);
  const { key } = useLocation();
  useEffect(() => {
    // React Router gives the location a visit opens on the key 'default'; every navigation gets a new one.
    if (key !== 'default') ref.current?.focus();
  }, [key]);
  return (
    <h1 ref={ref} id={id} className={className} tabIndex={-1}>
      {children}
    </h1>
  );
}
