import { useAnnouncement } from '../hooks/use-announcer';

/**
 * The app's one polite live region, always in the page so that assistive technology is already watching
 * it when something is said. Each announcement is a new paragraph, so the same words twice are read twice.
 */
export function LiveAnnouncer() {
  const announcement = useAnnouncement();
  return (
    <div className="visually-hidden" role="status" aria-label="Announcements" aria-atomic="true">
      {announcement && <p key={announcement.id}>{announcement.text}</p>}
    </div>
  );
}
