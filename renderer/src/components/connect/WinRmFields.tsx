// The WinRM transport's fields: the node (a host, or a full http(s) URL), the user, NTLM or Basic,
// and skipping TLS verification (with what that costs).
import { ShieldAlert } from 'lucide-react';
import { normalizeWinRmUrl, type ConnectForm, type FieldErrors } from '../connect-form.ts';
import { ConnectField } from './ConnectField.tsx';

export interface WinRmFieldsProps {
  value: ConnectForm['winrm'];
  errors: FieldErrors;
  onChange(p: Partial<ConnectForm['winrm']>): void;
}

/** What the node field will connect to, when that differs from what was typed. */
function winrmHint(url: string): string | undefined {
  const u = normalizeWinRmUrl(url);
  return u && u !== url.trim() ? `Connects to ${u}` : undefined;
}

export function WinRmFields({ value, errors, onChange }: WinRmFieldsProps) {
  return (
    <>
      <ConnectField label="Node" error={errors.url} hint={winrmHint(value.url)}>
        {(id) => (
          <input id={id} className="input mono" value={value.url} onChange={(e) => onChange({ url: e.target.value })} placeholder="node1  or  https://10.0.0.4:5986" spellCheck={false} autoComplete="off" data-autofocus="" data-testid="connect-url" />
        )}
      </ConnectField>
      <ConnectField label="User" error={errors.user}>
        {(id) => <input id={id} className="input mono" value={value.user} onChange={(e) => onChange({ user: e.target.value })} placeholder="DOMAIN\user" spellCheck={false} autoComplete="off" data-testid="connect-user" />}
      </ConnectField>
      <ConnectField label="Authentication" error={errors.auth}>
        {(id) => (
          <select id={id} className="input" value={value.auth} onChange={(e) => onChange({ auth: e.target.value as 'ntlm' | 'basic' })}>
            <option value="ntlm">NTLM (messages sealed, also on HTTP)</option>
            <option value="basic">Basic (HTTPS only)</option>
          </select>
        )}
      </ConnectField>
      <div className="connect-check-row">
        <label className="check">
          <input type="checkbox" checked={value.insecure} onChange={(e) => onChange({ insecure: e.target.checked })} />
          Skip TLS certificate verification
        </label>
        {value.insecure && (
          <p className="connect-warn" role="note">
            <ShieldAlert size={14} aria-hidden /> The node&apos;s certificate is not checked: whoever sits between you and the node can pose as it and read the password. Use it only on a network you trust{normalizeWinRmUrl(value.url)?.startsWith('http:') ? ' (it applies to https:// only)' : ''}.
          </p>
        )}
      </div>
    </>
  );
}
