import { useState, type CSSProperties } from 'react';
import './avatar.css';

export interface AvatarProps {
  /** The user's photoURL; empty or broken pictures fall back to the initial on a colour. */
  src: string;
  /** The user's display name: the picture's text alternative, unless decorative. */
  name: string;
  /** True when the name is shown as text right next to the picture, so the picture adds nothing (alt=""). */
  decorative?: boolean;
  /** Width and height in CSS pixels. */
  size?: number;
  className?: string;
}

// White text on each of these passes WCAG AA (≥ 4.5:1).
const FALLBACK_COLOURS = [
  '#b3261e',
  '#15803d',
  '#6b4fd8',
  '#1d4ed8',
  '#a21caf',
  '#0f766e',
  '#c2410c',
  '#be123c',
];

function colourFor(name: string): string {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return FALLBACK_COLOURS[hash % FALLBACK_COLOURS.length] ?? '#6b4fd8';
}

/** A round, cropped (never stretched) profile picture. */
export function Avatar({ src, name, decorative = false, size = 50, className }: AvatarProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const classes = className ? `avatar ${className}` : 'avatar';
  // The size travels as a custom property so a layout can still resize avatars from its stylesheet.
  const box = { '--avatar-size': `${size}px` } as CSSProperties;

  if (!src || failedSrc === src) {
    const initial = Array.from(name.trim())[0]?.toUpperCase() ?? '?';
    const style = { ...box, backgroundColor: colourFor(name) };
    return decorative ? (
      // role="img" (while hidden) keeps it a picture in the DOM's structure, like the <img> it replaces.
      <span className={`${classes} avatar-fallback`} style={style} role="img" aria-hidden="true">
        {initial}
      </span>
    ) : (
      <span className={`${classes} avatar-fallback`} style={style} role="img" aria-label={name}>
        {initial}
      </span>
    );
  }

  return (
    <img
      className={classes}
      src={src}
      alt={decorative ? '' : name}
      width={size}
      height={size}
      style={box}
      decoding="async"
      // A long list of cards starts fetching only the pictures near the screen.
      loading="lazy"
      onError={() => setFailedSrc(src)}
    />
  );
}
