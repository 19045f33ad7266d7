// The SSH transport's fields: host and port, user, an optional private key file and known_hosts,
// and whether to accept the host key of a node not in known_hosts.
import type { ConnectForm, FieldErrors } from '../connect-form.ts';
import { ConnectField } from './ConnectField.tsx';

export interface SshFieldsProps {
  value: ConnectForm['ssh'];
  errors: FieldErrors;
  onChange(p: Partial<ConnectForm['ssh']>): void;
}

export function SshFields({ value, errors, onChange }: SshFieldsProps) {
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
      <ConnectField label="Private key file" hint="Optional; with a key, the password field below is its passphrase.">
        {(id) => <input id={id} className="input mono" value={value.keyFile} onChange={(e) => onChange({ keyFile: e.target.value })} placeholder="~/.ssh/id_ed25519" spellCheck={false} autoComplete="off" />}
      </ConnectField>
      <ConnectField label="known_hosts" hint="Optional; default ~/.ssh/known_hosts.">
        {(id) => <input id={id} className="input mono" value={value.knownHosts} onChange={(e) => onChange({ knownHosts: e.target.value })} placeholder="~/.ssh/known_hosts" spellCheck={false} autoComplete="off" />}
      </ConnectField>
      <div className="connect-check-row">
        <label className="check">
          <input type="checkbox" checked={value.acceptNew} onChange={(e) => onChange({ acceptNew: e.target.checked })} />
          Accept the host key of a node not in known_hosts (a changed key is always refused)
        </label>
      </div>
    </>
  );
}
