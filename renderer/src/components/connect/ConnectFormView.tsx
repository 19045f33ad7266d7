// The Connect to node… form: a recent node, the transport and its fields, the password, where the
// bundle goes, Connect. The password is this component's state only: cleared on submit (handed to
// start(), which passes it to startCollect) and when the dialog closes.
import { useEffect, useRef, useState } from 'react';
import { useApp } from '../../store/app-store.ts';
import { collectStore, useCollect } from '../../store/collect-store.ts';
import { matchingSaved, passwordNeed, type ConnectForm, type CredentialKind, type Transport } from '../connect-form.ts';
import { SavedTargetPicker } from './SavedTargetPicker.tsx';
import { TransportTabs } from './TransportTabs.tsx';
import { WinRmFields } from './WinRmFields.tsx';
import { SshFields } from './SshFields.tsx';
import { KubectlFields } from './KubectlFields.tsx';
import { PasswordFields } from './PasswordFields.tsx';

export function ConnectFormView({ onClose }: { onClose(): void }) {
  const form = useCollect((s) => s.form);
  const saved = useCollect((s) => s.saved);
  const remember = useCollect((s) => s.remember);
  const errors = useCollect((s) => s.fieldErrors);
  const starting = useCollect((s) => s.starting);
  const startError = useCollect((s) => s.startError);
  const info = useApp((s) => s.info);
  const { setForm, setRemember, useSaved, forget, start, browse } = collectStore.getState();
  // Browse… needs the desktop app's native open dialog; in browser mode the hints say what serve reads.
  const canBrowse = !!info?.nativeDialogs;
  const onBrowse = (kind: CredentialKind) => void browse(kind);
  const [password, setPassword] = useState('');
  const pwRef = useRef<HTMLInputElement>(null);
  const known = matchingSaved(form, saved);
  const need = passwordNeed(form);

  useEffect(() => () => setPassword(''), []);

  const submit = () => {
    const pw = password;
    setPassword('');
    if (pwRef.current) pwRef.current.value = '';
    void start(pw);
  };

  const patch = <K extends Transport>(t: K) => (p: Partial<ConnectForm[K]>) => setForm((f) => ({ ...f, [t]: { ...f[t], ...p } }));

  return (
    <form
      className="connect-form"
      autoComplete="off"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <SavedTargetPicker saved={saved} onUse={useSaved} onForget={(key) => void forget(key)} />
      <TransportTabs value={form.transport} onChange={(transport) => setForm((f) => ({ ...f, transport }))} />

      <div className="connect-grid">
        {form.transport === 'winrm' && <WinRmFields value={form.winrm} errors={errors} onChange={patch('winrm')} />}
        {form.transport === 'ssh' && <SshFields value={form.ssh} errors={errors} onChange={patch('ssh')} canBrowse={canBrowse} onBrowse={onBrowse} />}
        {form.transport === 'kubectl' && <KubectlFields value={form.kubectl} errors={errors} onChange={patch('kubectl')} canBrowse={canBrowse} onBrowse={onBrowse} />}
        {need !== 'none' && (
          <PasswordFields
            need={need}
            passphrase={form.transport === 'ssh' && need === 'optional'}
            password={password}
            inputRef={pwRef}
            onPassword={setPassword}
            errors={errors}
            known={known}
            canRemember={info?.mode === 'electron'}
            remember={remember}
            onRemember={setRemember}
            rememberInfo={info?.rememberPasswords}
            onForgetPassword={(key) => void forget(key, true)}
          />
        )}
      </div>

      <p className="muted connect-note">
        The bundle is written to a new folder under the app&apos;s data folder ({'collections/<node>-<date>-<time>'}){info?.mode === 'browser' ? ' on the machine running hnsight serve' : ''}, then opened.
      </p>
      {startError && (
        <p className="error-message" role="alert" data-testid="connect-error">
          {startError}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="btn primary" disabled={starting} data-testid="connect-submit">
          {starting ? 'Connecting…' : 'Connect and collect'}
        </button>
      </div>
    </form>
  );
}
