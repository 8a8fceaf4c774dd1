import { pinnedThemeOf, THEME_COOKIE, THEMES, type Theme } from '../../common/appearance';
import { AppearanceClient } from '../../sdk/appearance';
import { dojo } from './dojo-client';

export const appearanceClient = new AppearanceClient(dojo.transport);

/**
 * Shows `theme` at once: a pinned one on <html data-theme>, 'system' by removing it so the stylesheet
 * follows prefers-color-scheme. The server mirrors the same choice into the cookie it reads on the next
 * page load (docs/decisions/069-dark-theme-and-room-to-work.md).
 */
export function applyTheme(theme: Theme): void {
  const pinned = pinnedThemeOf(theme);
  if (pinned) document.documentElement.dataset.theme = pinned;
  else delete document.documentElement.dataset.theme;
}

/** The account's theme as the server last mirrored it into this browser's cookie (set at every sign-in). */
function cookieTheme(): Theme | undefined {
  const prefix = `${THEME_COOKIE}=`;
  const value = document.cookie
    .split('; ')
    .find((part) => part.startsWith(prefix))
    ?.slice(prefix.length);
  return (THEMES as readonly string[]).includes(value ?? '') ? (value as Theme) : undefined;
}

/**
 * Brings this browser in line with the account's theme once a member is signed in. The sign-in itself
 * mirrored it into the cookie, so the cookie's theme is applied (a sign-in in this page, with no page load
 * since); only a browser without the cookie (signed in before the server set it at sign-in) asks the
 * account. Loaded lazily by the layout; a failure leaves the theme as it is.
 */
export async function syncTheme(): Promise<void> {
  const known = cookieTheme();
  if (known) {
    applyTheme(known);
    return;
  }
  try {
    applyTheme((await appearanceClient.get()).theme);
  } catch {
    // Offline or signed out meanwhile: the page keeps the theme it was served with.
  }
}
