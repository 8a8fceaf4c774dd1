/**
 * Whether changes other people make are announced (docs/decisions/019-announcements.md). A per-browser
 * preference in localStorage: it is about this device's screen reader, not the account, and needs no
 * server round trip.
 */
const KEY = 'dojo.announceLiveChanges';
const listeners = new Set<() => void>();

export function liveAnnouncementsOn(): boolean {
  try {
    return localStorage.getItem(KEY) !== 'off';
  } catch {
    // Storage refused (a privacy mode): the default, on.
    return true;
  }
}

export function setLiveAnnouncementsOn(on: boolean): void {
  try {
    if (on) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, 'off');
  } catch {
    // Not stored: the choice lasts until the tab is closed.
  }
  for (const listener of listeners) listener();
}

/** Calls `listener` when the preference changes, in this tab or another one. */
export function subscribeLiveAnnouncements(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === KEY || event.key === null) listener();
  };
  listeners.add(listener);
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}
