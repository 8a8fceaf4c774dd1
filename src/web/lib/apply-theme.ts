import { pinnedThemeOf, type Theme } from '../../common/appearance';
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

/**
 * Brings this browser in line with the account's theme once a member is signed in: a sign-in on a new
 * device, or a change made on another one. Loaded lazily by the layout; a failure leaves the theme as it is.
 */
export async function syncTheme(): Promise<void> {
  try {
    applyTheme((await appearanceClient.get()).theme);
  } catch {
    // Offline or signed out meanwhile: the page keeps the theme it was served with.
  }
}
