// The password (or an SSH key's passphrase) and, in the desktop app, remembering it with the OS
// keychain. The password itself is the form's component state, passed in: it is never put in a
// store, and the form clears it on submit.
import type { RefObject } from 'react';
import { KeyRound } from 'lucide-react';
import type { AppInfo, SavedTarget } from '../../../../contract/index.ts';
import type { FieldErrors } from '../connect-form.ts';
import { ConnectField } from './ConnectField.tsx';

export interface PasswordFieldsProps {
  /** 'optional': an SSH key's passphrase. */
  need: 'required' | 'optional';
  passphrase: boolean;
  password: string;
  inputRef: RefObject<HTMLInputElement | null>;
  onPassword(pw: string): void;
  errors: FieldErrors;
  /** The saved node the form describes, if any (its password may be remembered). */
  known?: SavedTarget;
  /** Remembering is offered in the desktop app only (browser mode has no secret store). */
  canRemember: boolean;
  remember: boolean;
  onRemember(on: boolean): void;
  /** Whether the OS keychain works here, and why not. */
  rememberInfo?: AppInfo['rememberPasswords'];
  onForgetPassword(key: string): void;
}

export function PasswordFields(p: PasswordFieldsProps) {
  const info = p.rememberInfo;
  const unavailable = info?.available === false;
  return (
    <>
      <ConnectField label={p.passphrase ? 'Key passphrase' : 'Password'} error={p.errors.password}>
        {(id) => (
          <input
            id={id}
            ref={p.inputRef}
            className="input"
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={p.password}
            onChange={(e) => p.onPassword(e.target.value)}
            placeholder={p.known?.passwordRemembered ? 'Remembered — leave empty to use it' : p.need === 'optional' ? 'If the key has one' : ''}
            data-testid="connect-password"
          />
        )}
      </ConnectField>
      {p.canRemember && (
        <div className="connect-check-row">
          <label className={`check ${unavailable ? 'disabled' : ''}`}>
            <input type="checkbox" checked={p.remember && !unavailable} disabled={unavailable} onChange={(e) => p.onRemember(e.target.checked)} data-testid="connect-remember" />
            <KeyRound size={14} aria-hidden /> Remember password (encrypted with the OS keychain)
          </label>
          {info?.available === false && <p className="muted connect-note">{info.reason}.</p>}
          {p.known?.passwordRemembered && (
            <button type="button" className="btn small ghost" onClick={() => p.onForgetPassword(p.known!.key)}>
              Forget the remembered password
            </button>
          )}
        </div>
      )}
    </>
  );
}
