import { useState } from 'react';
import { THEMES, type Theme } from '../../../common/appearance';
import { ErrorAlert } from '../../components/error-alert';
import { useOneShotRead } from '../../hooks/use-one-shot-read';
import { errorMessage } from '../../lib/error-message';
import { appearanceClient, applyTheme } from '../../lib/apply-theme';

const THEME_LABELS: Record<Theme, string> = {
  system: "Same as this device's setting",
  light: 'Light',
  dark: 'Dark',
};

/**
 * The member's theme, kept on the account so every device they sign in on follows it. A choice shows at
 * once and is saved at once; a refused save puts the previous one back.
 */
export function AppearanceSection() {
  const { data, failure, update } = useOneShotRead('appearance', () => appearanceClient.get());
  const loaded = data?.value ?? null;
  const [saveError, setSaveError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const error = failure ? errorMessage(failure.error) : saveError;

  const choose = async (theme: Theme) => {
    const before = loaded?.theme;
    update(() => ({ theme }));
    applyTheme(theme);
    setSaveError(null);
    setStatus('Saving...');
    try {
      await appearanceClient.set(theme);
      setStatus(`Theme saved: ${THEME_LABELS[theme]}.`);
    } catch (problem) {
      if (before) {
        update(() => ({ theme: before }));
        applyTheme(before);
      }
      setStatus('');
      setSaveError(errorMessage(problem));
    }
  };

  return (
    <section className="card" aria-labelledby="appearance-heading">
      <h2 id="appearance-heading">Appearance</h2>
      {!loaded && !error && <p role="status">Loading appearance...</p>}
      <ErrorAlert message={error} />
      {loaded && (
        <fieldset className="settings-choices">
          <legend>Theme</legend>
          {THEMES.map((theme) => (
            <div className="settings-checkbox" key={theme}>
              <input
                id={`theme-${theme}`}
                type="radio"
                name="theme"
                value={theme}
                checked={loaded.theme === theme}
                onChange={() => void choose(theme)}
              />
              <label htmlFor={`theme-${theme}`}>{THEME_LABELS[theme]}</label>
            </div>
          ))}
        </fieldset>
      )}
      <p className="settings-hint">Kept with your account: every device you sign in on follows it.</p>
      <div className="form-status" role="status">
        {status && <p>{status}</p>}
      </div>
    </section>
  );
}
