/**
 * Every icon of the app, drawn on a 24-unit grid in `currentColor`: outlines two units wide with round ends
 * and corners, or one filled shape. `size` is the size it is drawn at unless the caller says otherwise.
 */
const ICONS = {
  temple: [
    36,
    'M12 2.5 9.5 5h5L12 2.5ZM3 7.5c2.5.5 5.5-1 7-2.5h4c1.5 1.5 4.5 3 7 2.5M5 10h14M6 10v11M18 10v11M4 21h16M9.5 21v-5.5h5V21M6 13.5h12',
  ],
  dashboard: [24, 'M4 3h16a1 1 0 0 1 1 1v16a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1ZM10 3v18M10 12h11'],
  plus: [24, 'M12 5v14M5 12h14'],
  users: [
    24,
    'M13 8a4 4 0 0 1-8 0a4 4 0 0 1 8 0ZM2 21v-1a6 6 0 0 1 6-6h2a6 6 0 0 1 6 6v1M16 4a4 4 0 0 1 0 8M19 14a5 5 0 0 1 3 5v2',
  ],
  mail: [24, 'M4 5h16a1 1 0 0 1 1 1v12a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1Zm-1 1 9 7 9-7'],
  calendar: [
    24,
    'M4 5h16a1 1 0 0 1 1 1v14a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1ZM3 10h18M8 3v4M16 3v4',
  ],
  check: [24, 'M21 12a9 9 0 0 1-18 0a9 9 0 0 1 18 0Zm-13 .5 2.5 2.5L16 9.5'],
  bell: [
    20,
    'M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3a1.5 1.5 0 0 0-3 0v1.16A7 7 0 0 0 5 11v5l-2 2v1h18v-1Z',
    'filled',
  ],
} satisfies Record<string, readonly [size: number, path: string, filled?: 'filled']>;

export type IconName = keyof typeof ICONS;

interface IconProps {
  name: IconName;
  size?: number;
  className?: string;
  /**
   * What the icon means, for an icon that stands alone (it is then an image with this name). Without it
   * the icon is decorative, beside or inside something that already says it, and hidden from assistive
   * technology.
   */
  label?: string;
}

/** How an outline is drawn; a filled icon is one shape in `currentColor`. */
const OUTLINE = {
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
} as const;
const FILLED = { fill: 'currentColor' } as const;

export function Icon({ name, size, className, label }: IconProps) {
  const [ownSize, path, filled]: readonly [number, string, 'filled'?] = ICONS[name];
  const meaning = label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true };
  return (
    <svg
      className={className}
      width={size ?? ownSize}
      height={size ?? ownSize}
      viewBox="0 0 24 24"
      focusable="false"
      {...(filled ? FILLED : OUTLINE)}
      {...meaning}
    >
      <path d={path} />
    </svg>
  );
}
