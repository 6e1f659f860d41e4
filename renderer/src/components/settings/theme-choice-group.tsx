import { useSlice, useStores } from '../../stores/app-stores.ts';
import type { ThemeChoice } from '../../stores/theme-store.ts';

const CHOICES: [ThemeChoice, string][] = [
  ['light', 'Light'],
  ['dark', 'Dark'],
  ['system', 'System'],
];

/** This browser's theme (the same choice as the top bar's): kept in the browser, not in the engine. */
export function ThemeChoiceGroup() {
  const { theme } = useStores();
  const choice = useSlice(theme, (s) => s.choice);
  return (
    <section className="settings-section" aria-labelledby="appearance-title">
      <h3 id="appearance-title">Appearance</h3>
      <fieldset className="theme-choice">
        <legend>Theme</legend>
        {CHOICES.map(([value, label]) => (
          <label key={value} className={choice === value ? 'chip selected' : 'chip'}>
            <input
              type="radio"
              name="settings-theme"
              value={value}
              checked={choice === value}
              onChange={() => theme.getState().choose(value)}
            />
            {label}
          </label>
        ))}
      </fieldset>
      <p className="hint">Applies at once, to this browser only. System follows your operating system.</p>
    </section>
  );
}
