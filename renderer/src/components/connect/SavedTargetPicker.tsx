// Recent nodes: fills the form from a node connected to before (never its password, which stays
// with the backend's secret store), and forgets one.
import { useState } from 'react';
import type { SavedTarget } from '../../../../contract/index.ts';

export interface SavedTargetPickerProps {
  saved: SavedTarget[];
  onUse(key: string): void;
  onForget(key: string): void;
}

export function SavedTargetPicker({ saved, onUse, onForget }: SavedTargetPickerProps) {
  const [pick, setPick] = useState('');
  if (!saved.length) return null;
  return (
    <div className="connect-saved">
      <label className="field-label" htmlFor="connect-saved">
        Recent nodes
      </label>
      <div className="connect-inline">
        <select
          id="connect-saved"
          className="input"
          value={pick}
          onChange={(e) => {
            setPick(e.target.value);
            if (e.target.value) onUse(e.target.value);
          }}
          data-testid="connect-saved"
        >
          <option value="">Choose a node you connected to before…</option>
          {saved.map((s) => (
            <option key={s.key} value={s.key}>
              {s.label}
              {s.passwordRemembered ? ' · password remembered' : ''}
            </option>
          ))}
        </select>
        {pick && (
          <button
            type="button"
            className="btn small ghost danger"
            onClick={() => {
              onForget(pick);
              setPick('');
            }}
          >
            Forget
          </button>
        )}
      </div>
    </div>
  );
}
