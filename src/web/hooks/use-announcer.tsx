import {
  createContext,
  use,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import {
  liveAnnouncementsOn,
  setLiveAnnouncementsOn,
  subscribeLiveAnnouncements,
} from '../lib/announce-preference';
import {
  addChange,
  describeBatch,
  emptyBatch,
  withdrawChanges,
  type CountedChangeKind,
  type LiveChange,
} from '../lib/announcement-batch';

/**
 * Changes arriving within this long of the first one are told together ('3 new projects'), so a burst of
 * live updates is one sentence, not a stream that talks over the user.
 */
const BATCH_MS = 1_500;
/** Live changes are told at most this often, and never right on top of another announcement. */
const MIN_GAP_MS = 4_000;

export interface Announcement {
  /** A new id for every announcement, so the same words said twice are a new node and are read again. */
  id: number;
  text: string;
}

export interface Announcer {
  /** Confirms the user's own action or answers their request ('Project created.'), at once. */
  say: (text: string) => void;
  /** A change someone else made: batched, throttled, and dropped while the user has turned these off. */
  report: (change: LiveChange) => void;
  /** Drops reported changes of these kinds not yet told (their screen now shows another list). */
  withdraw: (kinds: readonly CountedChangeKind[]) => void;
}

const AnnouncerContext = createContext<Announcer | null>(null);
const AnnouncementContext = createContext<Announcement | null>(null);

/** The app's one announcer (docs/decisions/019-announcements.md); `LiveAnnouncer` shows what it says. */
export function AnnouncerProvider({ children }: { children: ReactNode }) {
  const [announcement, setAnnouncement] = useState<Announcement | null>(null);
  const nextId = useRef(1);
  const lastAt = useRef(0);
  const batch = useRef(emptyBatch());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const announce = useCallback((text: string) => {
    lastAt.current = Date.now();
    setAnnouncement({ id: nextId.current++, text });
  }, []);

  const flush = useCallback(() => {
    timer.current = null;
    const text = describeBatch(batch.current);
    batch.current = emptyBatch();
    if (text && liveAnnouncementsOn()) announce(text);
  }, [announce]);

  const say = useCallback(
    (text: string) => {
      announce(text);
      // Changes already waiting keep their distance from this answer too, rather than talk over it.
      if (timer.current !== null) {
        clearTimeout(timer.current);
        timer.current = setTimeout(flush, MIN_GAP_MS);
      }
    },
    [announce, flush],
  );

  const report = useCallback(
    (change: LiveChange) => {
      if (!liveAnnouncementsOn()) return;
      addChange(batch.current, change);
      if (timer.current !== null) return;
      const now = Date.now();
      const at = Math.max(now + BATCH_MS, lastAt.current + MIN_GAP_MS);
      timer.current = setTimeout(flush, at - now);
    },
    [flush],
  );

  const withdraw = useCallback((kinds: readonly CountedChangeKind[]) => {
    withdrawChanges(batch.current, kinds);
  }, []);

  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );

  const announcer = useMemo(() => ({ say, report, withdraw }), [say, report, withdraw]);
  return (
    <AnnouncerContext value={announcer}>
      <AnnouncementContext value={announcement}>{children}</AnnouncementContext>
    </AnnouncerContext>
  );
}

export function useAnnouncer(): Announcer {
  const announcer = use(AnnouncerContext);
  if (!announcer) throw new Error('useAnnouncer needs an AnnouncerProvider');
  return announcer;
}

/** The latest announcement, for the live region. */
export function useAnnouncement(): Announcement | null {
  return use(AnnouncementContext);
}

/** The user's choice to hear changes other people make (on unless turned off), and a way to change it. */
export function useLiveAnnouncementsSetting(): [boolean, (on: boolean) => void] {
  const on = useSyncExternalStore(subscribeLiveAnnouncements, liveAnnouncementsOn, () => true);
  return [on, setLiveAnnouncementsOn];
}
