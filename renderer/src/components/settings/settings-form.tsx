import { useState, type FormEvent } from 'react';
import {
  FIELD_GROUPS,
  formValues,
  overriddenBy,
  patchFrom,
  type FieldName,
  type FormValues,
  type Settings,
} from '../../lib/settings-fields.ts';
import { useSlice, useStores } from '../../stores/app-stores.ts';
import { engineControl, useEngineStopped } from '../shared/engine-gate.ts';
import { SettingField } from './setting-field.tsx';

const NOT_OWNER =
  'Only the owner account of this install (`local`, unless `hookscope serve --owner` names another) can change these settings, since they apply to every account; you can read them.';

/**
 * The engine's settings as a form. What the user types is kept per field
 * (`draft`) over the saved values, so a `settings.changed` from elsewhere
 * refreshes the fields not being edited without losing an edit in progress.
 * Only changed fields are sent; the engine checks them and its sentence shows
 * next to the field it names.
 */
export function SettingsForm({ settings }: { settings: Settings }) {
  const { settings: store } = useStores();
  const saving = useSlice(store, (s) => s.saving);
  const stopped = useEngineStopped();
  const outcome = useSlice(store, (s) => s.outcome);
  const [draft, setDraft] = useState<Partial<FormValues>>({});
  const saved = formValues(settings);
  const editable = settings.canEdit;
  const fieldErrors = outcome?.kind === 'failed' ? outcome.errors.fields : {};

  const edit = (name: FieldName, value: string): void => {
    setDraft((d) => ({ ...d, [name]: value }));
    if (outcome) store.getState().clearOutcome();
  };

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const patch = patchFrom(settings, draft);
    if (patch === null) return;
    if (await store.getState().save(patch)) setDraft({});
  };

  const unchanged = patchFrom(settings, draft) === null;
  return (
    <form className="settings-form" onSubmit={(e) => void submit(e)} noValidate aria-label="Engine settings">
      {editable ? (
        <p className="hint">
          Saved to <code>{settings.configFile}</code> and applied at once, without a restart.
        </p>
      ) : (
        <p className="settings-readonly" role="note">
          {NOT_OWNER}
        </p>
      )}
      {FIELD_GROUPS.map((group) => (
        <fieldset key={group.title} className="settings-section">
          <legend>{group.title}</legend>
          <p className="hint">{group.hint}</p>
          <div className="settings-fields">
            {group.fields.map((f) => {
              const lockedBy = overriddenBy(settings.sources[f.name]);
              return (
                <SettingField
                  key={f.name}
                  spec={f}
                  value={draft[f.name] ?? saved[f.name]}
                  onChange={(v) => edit(f.name, v)}
                  readOnly={!editable || lockedBy !== null}
                  note={lockedBy ?? f.hint ?? null}
                  error={fieldErrors[f.name] ?? null}
                />
              );
            })}
          </div>
        </fieldset>
      ))}
      {editable && (
        <div className="form-actions">
          <button type="submit" {...engineControl(stopped, { disabled: saving || unchanged })}>
            {saving ? 'Saving…' : 'Save'}
          </button>
          {!unchanged && !saving && (
            <button
              type="button"
              className="secondary"
              onClick={() => {
                setDraft({});
                store.getState().clearOutcome();
              }}
            >
              Discard changes
            </button>
          )}
          <span className="settings-outcome" role="status">
            {outcome?.kind === 'saved' && <span className="saved">Saved and applied.</span>}
            {outcome?.kind === 'failed' && <span className="failed">Not saved: {outcome.errors.message}</span>}
          </span>
        </div>
      )}
    </form>
  );
}
