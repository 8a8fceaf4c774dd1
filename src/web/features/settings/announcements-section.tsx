import { announcements } from '../../../common';
import { useLiveAnnouncementsSetting } from '../../hooks/use-announcer';

/** Whether changes other people make are read out; kept in this browser (docs/decisions/019-announcements.md). */
export function AnnouncementsSection() {
  const [on, setOn] = useLiveAnnouncementsSetting();
  return (
    <section className="card" aria-labelledby="announcements-heading">
      <h2 id="announcements-heading">Screen reader announcements</h2>
      <div className="settings-checkbox">
        <input
          id="announce-live-changes"
          type="checkbox"
          checked={on}
          aria-describedby="announce-live-changes-hint"
          onChange={(event) => setOn(event.target.checked)}
        />
        <label htmlFor="announce-live-changes">{announcements.settingLabel}</label>
      </div>
      <p id="announce-live-changes-hint" className="settings-hint">
        {announcements.settingHint} Saved in this browser.
      </p>
    </section>
  );
}
