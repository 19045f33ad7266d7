// Connect to node…: collect a bundle from a live Windows node over WinRM, SSH or kubectl, watch the
// commands run, cancel, and open the result like a CollectLogs bundle. The password lives only in this
// component's field until Connect is pressed; it is then handed to startCollect and the field cleared.
// It is never put in a store, a URL, the console or the DOM outside the field.
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { CircleCheck, CircleMinus, CircleX, KeyRound, Plug, ShieldAlert, TriangleAlert } from 'lucide-react';
import { Dialog } from './Dialog.tsx';
import { appStore, useApp } from '../store/app-store.ts';
import { collectStore, useCollect } from '../store/collect-app.ts';
import { formatBytes } from '../lib/format.ts';
import {
  TRANSPORTS, canOpen, isFinished, matchingSaved, normalizeWinRmUrl, passwordNeed, progressOf, resultOf,
  type ConnectForm, type Transport,
} from './connect-form.ts';
import type { CollectCommandView, CollectJob } from '../../../contract/index.ts';
import './ConnectDialog.css';

export function ConnectDialog() {
  const open = useCollect((s) => s.open);
  const job = useCollect((s) => s.job);
  if (!open) return null;
  const close = () => {
    const j = collectStore.getState().job;
    collectStore.getState().close();
    if (j && !isFinished(j)) appStore.getState().toast('info', 'The collection goes on in the background; Open ▾ → Connect to node… shows it.');
  };
  return (
    <Dialog label="Connect to a node" onClose={close} className="connect-dialog" testId="connect-dialog">
      <div className="dialog-head">
        <Plug size={17} aria-hidden />
        <h2>Connect to a node</h2>
        <span className="muted connect-sub">Collect a bundle from a live Windows node</span>
      </div>
      {job ? <JobView job={job} onClose={close} /> : <FormView onClose={close} />}
    </Dialog>
  );
}

// ---------------------------------------------------------------------------------------------
// The form.

function FormView({ onClose }: { onClose(): void }) {
  const form = useCollect((s) => s.form);
  const saved = useCollect((s) => s.saved);
  const remember = useCollect((s) => s.remember);
  const errors = useCollect((s) => s.fieldErrors);
  const starting = useCollect((s) => s.starting);
  const startError = useCollect((s) => s.startError);
  const info = useApp((s) => s.info);
  const { setForm, setRemember, useSaved, forget, start } = collectStore.getState();
  // The password: component state only, cleared on submit and when the dialog closes.
  const [password, setPassword] = useState('');
  const [pick, setPick] = useState('');
  const pwRef = useRef<HTMLInputElement>(null);
  const known = matchingSaved(form, saved);
  const need = passwordNeed(form);
  const electron = info?.mode === 'electron';
  const rememberInfo = info?.rememberPasswords;

  useEffect(() => () => setPassword(''), []);

  const submit = () => {
    const pw = password;
    setPassword('');
    if (pwRef.current) pwRef.current.value = '';
    void start(pw);
  };

  const patch = <K extends Transport>(t: K, p: Partial<ConnectForm[K]>) => setForm((f) => ({ ...f, [t]: { ...f[t], ...p } }));

  return (
    <form
      className="connect-form"
      autoComplete="off"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      {saved.length > 0 && (
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
              if (e.target.value) useSaved(e.target.value);
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
                void forget(pick);
                setPick('');
              }}
            >
              Forget
            </button>
          )}
          </div>
        </div>
      )}

      <div className="connect-tabs" role="tablist" aria-label="Transport">
        {TRANSPORTS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            aria-selected={form.transport === t.id}
            className={`connect-tab ${form.transport === t.id ? 'active' : ''}`}
            onClick={() => setForm((f) => ({ ...f, transport: t.id }))}
            data-testid={`connect-tab-${t.id}`}
          >
            {t.label}
          </button>
        ))}
      </div>
      <p className="muted connect-hint">{TRANSPORTS.find((t) => t.id === form.transport)?.hint}</p>

      <div className="connect-grid">
        {form.transport === 'winrm' && (
          <>
            <Field label="Node" error={errors.url} hint={winrmHint(form.winrm.url)}>
              {(id) => (
                <input id={id} className="input mono" value={form.winrm.url} onChange={(e) => patch('winrm', { url: e.target.value })} placeholder="node1  or  https://10.0.0.4:5986" spellCheck={false} autoComplete="off" data-autofocus="" data-testid="connect-url" />
              )}
            </Field>
            <Field label="User" error={errors.user}>
              {(id) => <input id={id} className="input mono" value={form.winrm.user} onChange={(e) => patch('winrm', { user: e.target.value })} placeholder="DOMAIN\user" spellCheck={false} autoComplete="off" data-testid="connect-user" />}
            </Field>
            <Field label="Authentication" error={errors.auth}>
              {(id) => (
                <select id={id} className="input" value={form.winrm.auth} onChange={(e) => patch('winrm', { auth: e.target.value as 'ntlm' | 'basic' })}>
                  <option value="ntlm">NTLM (messages sealed, also on HTTP)</option>
                  <option value="basic">Basic (HTTPS only)</option>
                </select>
              )}
            </Field>
            <div className="connect-check-row">
              <label className="check">
                <input type="checkbox" checked={form.winrm.insecure} onChange={(e) => patch('winrm', { insecure: e.target.checked })} />
                Skip TLS certificate verification
              </label>
              {form.winrm.insecure && (
                <p className="connect-warn" role="note">
                  <ShieldAlert size={14} aria-hidden /> The node&apos;s certificate is not checked: whoever sits between you and the node can pose as it and read the password. Use it only on a network you trust{normalizeWinRmUrl(form.winrm.url)?.startsWith('http:') ? ' (it applies to https:// only)' : ''}.
                </p>
              )}
            </div>
          </>
        )}
        {form.transport === 'ssh' && (
          <>
            <Field label="Host" error={errors.host ?? errors.port}>
              {(id) => (
                <div className="connect-inline">
                  <input id={id} className="input mono grow" value={form.ssh.host} onChange={(e) => patch('ssh', { host: e.target.value })} placeholder="node1 or 10.0.0.4" spellCheck={false} autoComplete="off" data-autofocus="" />
                  <input className="input mono port" value={form.ssh.port} onChange={(e) => patch('ssh', { port: e.target.value })} placeholder="22" inputMode="numeric" aria-label="Port" />
                </div>
              )}
            </Field>
            <Field label="User" error={errors.user}>
              {(id) => <input id={id} className="input mono" value={form.ssh.user} onChange={(e) => patch('ssh', { user: e.target.value })} placeholder="azureuser" spellCheck={false} autoComplete="off" />}
            </Field>
            <Field label="Private key file" hint="Optional; with a key, the password field below is its passphrase.">
              {(id) => <input id={id} className="input mono" value={form.ssh.keyFile} onChange={(e) => patch('ssh', { keyFile: e.target.value })} placeholder="~/.ssh/id_ed25519" spellCheck={false} autoComplete="off" />}
            </Field>
            <Field label="known_hosts" hint="Optional; default ~/.ssh/known_hosts.">
              {(id) => <input id={id} className="input mono" value={form.ssh.knownHosts} onChange={(e) => patch('ssh', { knownHosts: e.target.value })} placeholder="~/.ssh/known_hosts" spellCheck={false} autoComplete="off" />}
            </Field>
            <div className="connect-check-row">
              <label className="check">
                <input type="checkbox" checked={form.ssh.acceptNew} onChange={(e) => patch('ssh', { acceptNew: e.target.checked })} />
                Accept the host key of a node not in known_hosts (a changed key is always refused)
              </label>
            </div>
          </>
        )}
        {form.transport === 'kubectl' && (
          <>
            <Field label="Node" error={errors.node} hint="A HostProcess pod runs on it for the collection and is deleted afterwards.">
              {(id) => <input id={id} className="input mono" value={form.kubectl.node} onChange={(e) => patch('kubectl', { node: e.target.value })} placeholder="akswin000001" spellCheck={false} autoComplete="off" data-autofocus="" />}
            </Field>
            <Field label="kubeconfig" hint="Optional; default $KUBECONFIG or ~/.kube/config.">
              {(id) => <input id={id} className="input mono" value={form.kubectl.kubeconfig} onChange={(e) => patch('kubectl', { kubeconfig: e.target.value })} placeholder="~/.kube/config" spellCheck={false} autoComplete="off" />}
            </Field>
            <Field label="Context" hint="Optional; default the kubeconfig's current context.">
              {(id) => <input id={id} className="input mono" value={form.kubectl.context} onChange={(e) => patch('kubectl', { context: e.target.value })} spellCheck={false} autoComplete="off" />}
            </Field>
          </>
        )}

        {need !== 'none' && (
          <Field label={form.transport === 'ssh' && need === 'optional' ? 'Key passphrase' : 'Password'} error={errors.password}>
            {(id) => (
              <input
                id={id}
                ref={pwRef}
                className="input"
                type="password"
                autoComplete="off"
                spellCheck={false}
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                placeholder={known?.passwordRemembered ? 'Remembered — leave empty to use it' : need === 'optional' ? 'If the key has one' : ''}
                data-testid="connect-password"
              />
            )}
          </Field>
        )}
        {need !== 'none' && electron && (
          <div className="connect-check-row">
            <label className={`check ${rememberInfo?.available === false ? 'disabled' : ''}`}>
              <input type="checkbox" checked={remember && rememberInfo?.available !== false} disabled={rememberInfo?.available === false} onChange={(e) => setRemember(e.target.checked)} data-testid="connect-remember" />
              <KeyRound size={14} aria-hidden /> Remember password (encrypted with the OS keychain)
            </label>
            {rememberInfo?.available === false && <p className="muted connect-note">{rememberInfo.reason}.</p>}
            {known?.passwordRemembered && (
              <button type="button" className="btn small ghost" onClick={() => void forget(known.key, true)}>
                Forget the remembered password
              </button>
            )}
          </div>
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

function winrmHint(url: string): string | undefined {
  const u = normalizeWinRmUrl(url);
  return u && u !== url.trim() ? `Connects to ${u}` : undefined;
}

function Field({ label, error, hint, children }: { label: string; error?: string; hint?: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <>
      <label className="field-label connect-label" htmlFor={id}>
        {label}
      </label>
      <div className="connect-field">
        {children(id)}
        {error ? (
          <span className="connect-field-error" role="alert">
            {error}
          </span>
        ) : hint ? (
          <span className="muted connect-field-hint">{hint}</span>
        ) : null}
      </div>
    </>
  );
}

// ---------------------------------------------------------------------------------------------
// Progress and result.

function JobView({ job, onClose }: { job: CollectJob; onClose(): void }) {
  const { cancel, again, openResult } = collectStore.getState();
  const opened = useCollect((s) => s.opened);
  const startError = useCollect((s) => s.startError);
  const finished = isFinished(job);
  const p = progressOf(job);
  const pct = Math.round(p.fraction * 100);
  const result = finished ? resultOf(job) : undefined;
  return (
    <div className="connect-job" data-testid="connect-job" data-state={job.state}>
      <div className="connect-target mono ellipsis" title={job.target}>
        {job.target}
      </div>
      {!result ? (
        <div role="status" aria-live="polite" className="connect-progress">
          <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-label="Collection progress">
            <div className="progress-fill" style={{ width: `${pct}%` }} />
          </div>
          <div className="connect-progress-line">
            <span className="spinner small" aria-hidden />
            <span data-testid="connect-progress">{p.line}</span>
          </div>
          {p.file && <div className="mono ellipsis connect-current">{p.file}</div>}
        </div>
      ) : (
        <div className={`connect-result ${job.state}`} role="status" data-testid="connect-result">
          <ResultIcon state={job.state} />
          <div className="connect-result-text">
            <div className="connect-result-title">{result.title}</div>
            <div className="connect-result-line">{p.line}</div>
            {result.reason && <div className="connect-result-reason">{result.reason}</div>}
          </div>
        </div>
      )}
      {job.rememberError && <p className="connect-warn">{job.rememberError}</p>}
      {job.passwordRemembered && <p className="muted connect-note">The password is remembered, encrypted with the OS keychain.</p>}

      {result ? (
        <>
          {result.problems.length > 0 && <CommandList rows={result.problems} title={`Did not complete (${result.problems.length})`} />}
          {result.notRun > 0 && job.commands.some((c) => c.bytes > 0) && (
            <p className="muted connect-note">
              {result.notRun} {result.notRun === 1 ? 'command was' : 'commands were'} not run.
            </p>
          )}
        </>
      ) : (
        <CommandList rows={job.commands} follow />
      )}

      {finished && canOpen(job) && (
        <p className="muted connect-note">
          Saved in <span className="mono">{job.outDir}</span>
          {opened ? ' — opened in the app.' : '.'}
        </p>
      )}
      {startError && <p className="error-message">{startError}</p>}
      <div className="dialog-actions">
        {!finished ? (
          <>
            <button type="button" className="btn" onClick={onClose} title="The collection goes on; Open ▾ → Connect to node… shows it again">
              Hide
            </button>
            <button type="button" className="btn danger" onClick={() => void cancel()} data-testid="connect-cancel">
              Cancel collection
            </button>
          </>
        ) : (
          <>
            {canOpen(job) ? (
              <button type="button" className="btn" onClick={again} data-testid="connect-again">
                Collect again
              </button>
            ) : (
              <button type="button" className="btn" onClick={onClose}>
                Close
              </button>
            )}
            {canOpen(job) && !opened && (
              <button type="button" className="btn primary" onClick={() => void openResult()} data-testid="connect-open">
                Open what was collected
              </button>
            )}
            {canOpen(job) && opened && (
              <button type="button" className="btn primary" onClick={onClose} data-testid="connect-show">
                Show the bundle
              </button>
            )}
            {!canOpen(job) && (
              <button type="button" className="btn primary" onClick={again} data-testid="connect-again" data-autofocus="">
                Back to the form
              </button>
            )}
          </>
        )}
      </div>
    </div>
  );
}

function ResultIcon({ state }: { state: CollectJob['state'] }) {
  if (state === 'done') return <CircleCheck size={22} className="ok-icon" aria-hidden />;
  if (state === 'partial') return <TriangleAlert size={22} className="warn-icon" aria-hidden />;
  if (state === 'cancelled') return <CircleMinus size={22} className="muted" aria-hidden />;
  return <CircleX size={22} className="err-icon" aria-hidden />;
}

const STATUS_LABEL: Record<CollectCommandView['status'], string> = { ok: 'ok', partial: 'partial', failed: 'failed', cancelled: 'cancelled', skipped: 'not run' };
const STATUS_BADGE: Record<CollectCommandView['status'], string> = { ok: 'ok', partial: 'warning', failed: 'error', cancelled: 'info', skipped: 'info' };

/** While running: every command so far, the newest in view. Finished: the ones that did not complete. */
function CommandList({ rows, title, follow }: { rows: CollectCommandView[]; title?: string; follow?: boolean }) {
  const ref = useRef<HTMLUListElement>(null);
  useEffect(() => {
    if (follow && ref.current) ref.current.scrollTop = ref.current.scrollHeight;
  }, [rows.length, follow]);
  if (!rows.length) return null;
  return (
    <>
      {title && <h3 className="connect-list-title">{title}</h3>}
      <ul ref={ref} className="connect-commands" data-testid={follow ? 'connect-commands' : 'connect-problems'}>
        {rows.map((c) => (
          <li key={c.id}>
            <span className={`badge ${STATUS_BADGE[c.status]}`}>{STATUS_LABEL[c.status]}</span>
            <span className="mono ellipsis" title={c.title}>
              {c.file}
            </span>
            <span className="muted ellipsis connect-cmd-detail" title={c.error}>
              {c.error ?? c.title}
            </span>
            <span className="muted num">{c.bytes ? formatBytes(c.bytes) : ''}</span>
          </li>
        ))}
      </ul>
    </>
  );
}
