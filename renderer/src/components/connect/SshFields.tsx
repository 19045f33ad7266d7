// The SSH transport's fields: host and port, user, an optional private key file and known_hosts,
// and whether to accept the host key of a node not in known_hosts.
import type { ConnectForm, CredentialKind, FieldErrors } from '../connect-form.ts';
import { ConnectField } from './ConnectField.tsx';
import { CredentialFileField } from './CredentialFileField.tsx';

export interface SshFieldsProps {
  value: ConnectForm['ssh'];
  errors: FieldErrors;
  onChange(p: Partial<ConnectForm['ssh']>): void;
  /** Native open dialogs exist: Browse… next to the key and known_hosts. */
  canBrowse: boolean;
  onBrowse(kind: CredentialKind): void;
}

export function SshFields({ value, errors, onChange, canBrowse, onBrowse }: SshFieldsProps) {
  return (
    <>
      <ConnectField label="Host" error={errors.host ?? errors.port}>
        {(id) => (
          <div className="connect-inline">
            <input id={id} className="input mono grow" value={value.host} onChange={(e) => onChange({ host: e.target.value })} placeholder="node1 or 10.0.0.4" spellCheck={false} autoComplete="off" data-autofocus="" />
            <input className="input mono port" value={value.port} onChange={(e) => onChange({ port: e.target.value })} placeholder="22" inputMode="numeric" aria-label="Port" />
          </div>
        )}
      </ConnectField>
      <ConnectField label="User" error={errors.user}>
        {(id) => <input id={id} className="input mono" value={value.user} onChange={(e) => onChange({ user: e.target.value })} placeholder="azureuser" spellCheck={false} autoComplete="off" />}
      </ConnectField>
      <CredentialFileField kind="identity" label="Private key file" value={value.keyFile} placeholder="~/.ssh/id_ed25519" error={errors.keyFile} canBrowse={canBrowse} onChange={(keyFile) => onChange({ keyFile })} onBrowse={onBrowse} />
      <CredentialFileField kind="known-hosts" label="known_hosts" value={value.knownHosts} placeholder="~/.ssh/known_hosts" error={errors.knownHosts} canBrowse={canBrowse} onChange={(knownHosts) => onChange({ knownHosts })} onBrowse={onBrowse} />
      <div className="connect-check-row">
        <label className="check">
          <input type="checkbox" checked={value.acceptNew} onChange={(e) => onChange({ acceptNew: e.target.checked })} />
          Accept the host key of a node not in known_hosts (a changed key is always refused)
        </label>
      </div>
    </>
  );
}
