/**
 * How the app looks for one member (docs/decisions/069-dark-theme-and-room-to-work.md): the theme they pin.
 * Imported by path (never through index.ts), so only the settings screen's chunk and the server carry it.
 * No zod here: the theme sync every signed-in first visit loads imports this module, and zod's chunk must
 * stay out of that visit; the schemas are in appearance-schemas.ts.
 */

/** 'system' follows the device's `prefers-color-scheme`; 'light' and 'dark' pin one. */
export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/**
 * The cookie the pinned theme is mirrored in, so the server can put `data-theme` on `<html>` of the page it
 * sends: the right colours from the first paint, with no script. Readable by the page (not httpOnly): it
 * holds a preference, never a secret.
 */
export const THEME_COOKIE = 'dojo_theme';

export const appearanceMessages = {
  themeInvalid: 'Choose a theme: system, light or dark.',
} as const;

export interface Appearance {
  theme: Theme;
}

/** A cookie's value as a pinned theme; anything else (absent, 'system', garbage) means none is pinned. */
export const pinnedThemeOf = (value: string | undefined): 'light' | 'dark' | undefined =>
  value === 'light' || value === 'dark' ? value : undefined;
