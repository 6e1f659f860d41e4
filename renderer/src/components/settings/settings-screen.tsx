import { useEffect, useRef } from 'react';
import { useSlice, useStores } from '../../stores/app-stores.ts';
import { useEngineStopped } from '../shared/engine-gate.ts';
import { PortsInfo } from './ports-info.tsx';
import { SettingsForm } from './settings-form.tsx';
import { TeamServerSection } from './team-server-section.tsx';
import { ThemeChoiceGroup } from './theme-choice-group.tsx';
import './settings-screen.css';

/**
 * The Settings screen (`#/settings`): the engine-wide settings (tunnel,
 * retention, rate limit, LLM), saved to config.json and applied at once; the
 * ports, which need a restart, read-only with how to change them; in the
 * desktop app, the team server shown instead of this computer; and this
 * browser's theme. Only the install's owner may change the engine's settings.
 */
export function SettingsScreen() {
  const { settings } = useStores();
  const current = useSlice(settings, (s) => s.settings);
  const loading = useSlice(settings, (s) => s.loading);
  const stopped = useEngineStopped();

  const missing = current === null;
  const read = useRef(false);

  // Read on opening, or once a stopped engine is back if they were never read: asking a stopped
  // engine would only add an error notice to its alert, and reading again after an edit made
  // while it was stopped would undo the edit.
  useEffect(() => {
    if (stopped || (read.current && !missing)) return;
    read.current = true;
    void settings.getState().load();
  }, [settings, stopped, missing]);

  return (
    <main className="settings" aria-labelledby="settings-title" aria-busy={loading}>
      <h2 id="settings-title">Settings</h2>
      {current === null ? (
        <p className="empty">
          {stopped
            ? 'The engine is stopped: the settings are read once it is back.'
            : loading
              ? 'Loading settings…'
              : 'The settings could not be read.'}
        </p>
      ) : (
        <>
          <SettingsForm settings={current} />
          <PortsInfo ports={current.ports} />
        </>
      )}
      <TeamServerSection />
      <ThemeChoiceGroup />
    </main>
  );
}
