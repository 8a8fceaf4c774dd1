// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  liveAnnouncementsOn,
  setLiveAnnouncementsOn,
  subscribeLiveAnnouncements,
} from './announce-preference';

const KEY = 'dojo.announceLiveChanges';

describe('the live-announcements preference', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('is on until turned off, and stays off in this browser', () => {
    expect(liveAnnouncementsOn()).toBe(true);
    setLiveAnnouncementsOn(false);
    expect(localStorage.getItem(KEY)).toBe('off');
    expect(liveAnnouncementsOn()).toBe(false);
    setLiveAnnouncementsOn(true);
    expect(localStorage.getItem(KEY)).toBeNull();
    expect(liveAnnouncementsOn()).toBe(true);
  });

  it('tells its listeners of a change in this tab and in another one, until they leave', () => {
    const listener = vi.fn();
    const unsubscribe = subscribeLiveAnnouncements(listener);
    setLiveAnnouncementsOn(false);
    expect(listener).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new StorageEvent('storage', { key: KEY }));
    expect(listener).toHaveBeenCalledTimes(2);
    // Another tab clearing all storage may have cleared this too.
    window.dispatchEvent(new StorageEvent('storage', { key: null }));
    expect(listener).toHaveBeenCalledTimes(3);
    window.dispatchEvent(new StorageEvent('storage', { key: 'something.else' }));
    expect(listener).toHaveBeenCalledTimes(3);
    unsubscribe();
    setLiveAnnouncementsOn(true);
    window.dispatchEvent(new StorageEvent('storage', { key: KEY }));
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it('is on when storage refuses to be read, and a refused write still tells the listeners', () => {
    const refuse = () => {
      throw new DOMException('denied', 'SecurityError');
    };
    // A privacy mode's storage: every read and write throws.
    vi.stubGlobal('localStorage', { getItem: refuse, setItem: refuse, removeItem: refuse });
    const listener = vi.fn();
    const unsubscribe = subscribeLiveAnnouncements(listener);
    expect(liveAnnouncementsOn()).toBe(true);
    expect(() => setLiveAnnouncementsOn(false)).not.toThrow();
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
  });
});
