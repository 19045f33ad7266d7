// A kubeconfig, SSH key or known_hosts field of the Connect to node… form: the path, typed or — in the
// desktop app — chosen with Browse… (the native open dialog, pickCredentialFile), which makes it a file
// startCollect accepts. Browser mode has no such dialog: no button, and the hint says what serve reads.
import { credentialHint, type CredentialKind } from '../connect-form.ts';
import { ConnectField } from './ConnectField.tsx';

export interface BrowseButtonProps {
  kind: CredentialKind;
  label: string;
  onBrowse(kind: CredentialKind): void;
}

/** Browse…: asks the backend for the native open dialog (the store's browse → pickCredentialFile). */
export function BrowseButton({ kind, label, onBrowse }: BrowseButtonProps) {
  return (
    <button type="button" className="btn" onClick={() => onBrowse(kind)} aria-label={`Browse for the ${label} file`} title="Choose the file in the open dialog" data-testid={`browse-${kind}`}>
      Browse…
    </button>
  );
}

export interface CredentialFileFieldProps {
  kind: CredentialKind;
  label: string;
  value: string;
  placeholder: string;
  error?: string;
  /** Native open dialogs exist (the desktop app): Browse… is offered. */
  canBrowse: boolean;
  onChange(value: string): void;
  onBrowse(kind: CredentialKind): void;
}

export function CredentialFileField({ kind, label, value, placeholder, error, canBrowse, onChange, onBrowse }: CredentialFileFieldProps) {
  return (
    <ConnectField label={label} error={error} hint={credentialHint(kind, canBrowse)}>
      {(id) => (
        <div className="connect-inline">
          <input id={id} className="input mono grow" value={value} onChange={(e) => onChange(e.target.value)} placeholder={placeholder} spellCheck={false} autoComplete="off" />
          {canBrowse && <BrowseButton kind={kind} label={label} onBrowse={onBrowse} />}
        </div>
      )}
    </ConnectField>
  );
}
