// Pure helpers of the Connect to node… dialog: the form's fields → a contract target (with per-field
// messages), a saved target → the form, and the progress and result lines. No React, no secrets: the
// password is never part of a ConnectForm.
import { formatBytes } from '../lib/format.ts';
import type { CollectCommandView, CollectJob, CollectTarget, SavedTarget } from '../../../contract/index.ts';

export type Transport = CollectTarget['transport'];

export interface ConnectForm {
  transport: Transport;
  winrm: { url: string; user: string; auth: 'ntlm' | 'basic'; insecure: boolean };
  ssh: { host: string; port: string; user: string; keyFile: string; knownHosts: string; acceptNew: boolean };
  kubectl: { node: string; kubeconfig: string; context: string };
}

export const EMPTY_FORM: ConnectForm = {
  transport: 'winrm',
  winrm: { url: '', user: '', auth: 'ntlm', insecure: false },
  ssh: { host: '', port: '', user: '', keyFile: '', knownHosts: '', acceptNew: false },
  kubectl: { node: '', kubeconfig: '', context: '' },
};

export const TRANSPORTS: { id: Transport; label: string; hint: string }[] = [
  { id: 'winrm', label: 'WinRM', hint: 'PowerShell remoting on 5985 (HTTP, NTLM-sealed) or 5986 (HTTPS).' },
  { id: 'ssh', label: 'SSH', hint: "The node's OpenSSH server; a key or a password." },
  { id: 'kubectl', label: 'kubectl', hint: 'A short-lived HostProcess pod on the node, through your kubeconfig.' },
];

/** Field name → what is wrong with it. */
export type FieldErrors = Partial<Record<string, string>>;

const HOST_RE = /^[A-Za-z0-9._:%[\]-]+$/;
const USER_RE = /^[^\s:@/]+$|^[^\s:/]+@[^\s:/@]+$/;

/**
 * What the user typed in the WinRM field → a URL: `node1` → `http://node1:5985/wsman`, `https://node1` →
 * `https://node1:5986/wsman`; a full URL is kept. Undefined when it cannot be one (or holds a user).
 */
export function normalizeWinRmUrl(input: string): string | undefined {
  const text = input.trim();
  if (!text) return undefined;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  let u: URL;
  try {
    u = new URL(withScheme);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  if (u.username || u.password || u.search || u.hash || !u.hostname) return undefined;
  if (!u.port) u.port = u.protocol === 'https:' ? '5986' : '5985';
  if (u.pathname === '/' || u.pathname === '') u.pathname = '/wsman';
  return u.href;
}

/** The form → the contract's target, or the fields to fix. */
export function targetFromForm(f: ConnectForm): { target: CollectTarget; errors?: undefined } | { target?: undefined; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const opt = (s: string) => (s.trim() ? s.trim() : undefined);
  switch (f.transport) {
    case 'winrm': {
      const w = f.winrm;
      const raw = w.url.trim();
      const url = normalizeWinRmUrl(raw);
      if (!raw) errors.url = 'the node: a host name, an IP address or http(s)://host:port';
      else if (/^[a-z][a-z0-9+.-]*:\/\/[^/]*@/i.test(raw)) errors.url = 'no user or password in the URL: use the fields below';
      else if (!url) errors.url = 'not a WinRM address: http://HOST:5985 or https://HOST:5986';
      const user = w.user.trim();
      if (!user) errors.user = 'a user: DOMAIN\\user, .\\Administrator or user@domain';
      else if (!USER_RE.test(user)) errors.user = 'a user name has no spaces, colons or slashes';
      if (w.auth === 'basic' && url?.startsWith('http:')) errors.auth = 'Basic sends the password readable on HTTP: use https:// or NTLM';
      if (Object.keys(errors).length) return { errors };
      return { target: { transport: 'winrm', url: url!, user, auth: w.auth, ...(w.insecure && url!.startsWith('https:') ? { insecureSkipTlsVerify: true } : {}) } };
    }
    case 'ssh': {
      const s = f.ssh;
      const host = s.host.trim();
      if (!host) errors.host = 'the node: a host name or an IP address';
      else if (!HOST_RE.test(host)) errors.host = 'a host name or an IP address, nothing else (put the user below)';
      let port: number | undefined;
      if (s.port.trim()) {
        port = Number(s.port.trim());
        if (!Number.isInteger(port) || port < 1 || port > 65535) errors.port = 'a port from 1 to 65535';
      }
      const user = s.user.trim();
      if (!user) errors.user = 'a user on the node';
      else if (!USER_RE.test(user)) errors.user = 'a user name has no spaces, colons or slashes';
      if (Object.keys(errors).length) return { errors };
      const t: CollectTarget = { transport: 'ssh', host: host.replace(/^\[(.*)\]$/, '$1'), user };
      if (port && port !== 22) t.port = port;
      if (opt(s.keyFile)) t.privateKeyFile = opt(s.keyFile);
      if (opt(s.knownHosts)) t.knownHostsFile = opt(s.knownHosts);
      if (s.acceptNew) t.acceptNewHostKey = true;
      return { target: t };
    }
    case 'kubectl': {
      const k = f.kubectl;
      const node = k.node.trim();
      if (!node) errors.node = 'the Windows node name, as `kubectl get nodes` shows it';
      else if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/i.test(node) || node.length > 253) errors.node = 'a Kubernetes node name (letters, digits, - and .)';
      if (Object.keys(errors).length) return { errors };
      const t: CollectTarget = { transport: 'kubectl', node };
      if (opt(k.kubeconfig)) t.kubeconfig = opt(k.kubeconfig);
      if (opt(k.context)) t.context = opt(k.context);
      return { target: t };
    }
  }
}

/** A credential file the Connect dialog can pick in the native open dialog (pickCredentialFile's kind). */
export type CredentialKind = 'kubeconfig' | 'identity' | 'known-hosts';

/** Where each kind goes in the form: its transport, its field, and the key of its message in FieldErrors. */
export const CREDENTIAL_FIELDS = {
  kubeconfig: { transport: 'kubectl', field: 'kubeconfig' },
  identity: { transport: 'ssh', field: 'keyFile' },
  'known-hosts': { transport: 'ssh', field: 'knownHosts' },
} as const satisfies Record<CredentialKind, { transport: Transport; field: string }>;

/** The form with `p` (the open dialog's answer) in the field of `kind`; the other fields unchanged. */
export function withCredentialFile(f: ConnectForm, kind: CredentialKind, p: string): ConnectForm {
  switch (kind) {
    case 'kubeconfig':
      return { ...f, kubectl: { ...f.kubectl, kubeconfig: p } };
    case 'identity':
      return { ...f, ssh: { ...f.ssh, keyFile: p } };
    case 'known-hosts':
      return { ...f, ssh: { ...f.ssh, knownHosts: p } };
  }
}

/**
 * The hint under a credential file's field. Without native dialogs (browser mode) the path is typed,
 * and hnsight serve reads only the default locations or files under a folder given to --allow.
 */
export function credentialHint(kind: CredentialKind, nativeDialogs: boolean): string {
  const base = kind === 'kubeconfig' ? 'Optional; default $KUBECONFIG or ~/.kube/config.' : kind === 'identity' ? 'Optional; with a key, the password field below is its passphrase.' : 'Optional; default ~/.ssh/known_hosts.';
  return nativeDialogs
    ? `${base} Another file: Browse…`
    : `${base} In the browser there is no file dialog: hnsight serve reads ${kind === 'kubeconfig' ? '~/.kube/config or $KUBECONFIG' : 'files in ~/.ssh'}, or a file under a folder given with hnsight serve --allow DIR (type its path).`;
}

/** Whether a password is asked for: WinRM always, SSH unless a key is given (then it is the key's passphrase, optional). */
export function passwordNeed(f: ConnectForm): 'required' | 'optional' | 'none' {
  if (f.transport === 'kubectl') return 'none';
  if (f.transport === 'ssh' && f.ssh.keyFile.trim()) return 'optional';
  return 'required';
}

/** A saved target back into the form (the other transports' fields keep what they had). */
export function formFromTarget(t: CollectTarget, base: ConnectForm = EMPTY_FORM): ConnectForm {
  switch (t.transport) {
    case 'winrm':
      return { ...base, transport: 'winrm', winrm: { url: t.url, user: t.user, auth: t.auth ?? 'ntlm', insecure: !!t.insecureSkipTlsVerify } };
    case 'ssh':
      return { ...base, transport: 'ssh', ssh: { host: t.host, port: t.port ? String(t.port) : '', user: t.user, keyFile: t.privateKeyFile ?? '', knownHosts: t.knownHostsFile ?? '', acceptNew: !!t.acceptNewHostKey } };
    case 'kubectl':
      return { ...base, transport: 'kubectl', kubectl: { node: t.node, kubeconfig: t.kubeconfig ?? '', context: t.context ?? '' } };
  }
}

/** The saved target that the form currently describes, if any (so the dialog can offer its remembered password). */
export function matchingSaved(f: ConnectForm, saved: SavedTarget[]): SavedTarget | undefined {
  const r = targetFromForm(f);
  if (!r.target) return undefined;
  const same = (a: CollectTarget, b: CollectTarget) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
  return saved.find((s) => same(s.target, r.target));
}

function canonical(t: CollectTarget): unknown {
  switch (t.transport) {
    case 'winrm':
      return ['winrm', normalizeWinRmUrl(t.url)?.toLowerCase(), t.user.toLowerCase()];
    case 'ssh':
      return ['ssh', t.host.toLowerCase(), t.port ?? 22, t.user];
    case 'kubectl':
      return ['kubectl', t.node.toLowerCase(), t.kubeconfig ?? '', t.context ?? ''];
  }
}

/** Progress as the dialog shows it: a fraction for the bar and one line of text. */
export function progressOf(j: CollectJob): { fraction: number; line: string; file?: string } {
  if (j.state === 'connecting') return { fraction: 0, line: `Connecting to ${j.target}…` };
  const done = j.commands.length;
  const total = j.total || 0;
  if (j.state === 'running') {
    const c = j.current;
    const fraction = total ? Math.min(1, (done + (c ? 0.5 : 0)) / total) : 0;
    if (c) return { fraction, line: `Command ${c.index + 1} of ${total} · ${formatBytes(j.bytes)} so far`, file: `${c.file}${c.bytes ? ` (${formatBytes(c.bytes)})` : ''} — ${c.title}` };
    return { fraction, line: total ? `${done} of ${total} commands · ${formatBytes(j.bytes)}` : 'Connected' };
  }
  const got = j.commands.filter((c) => c.bytes > 0).length;
  return { fraction: 1, line: got ? `${got} of ${total || j.commands.length} files collected · ${formatBytes(j.bytes)}` : 'Nothing was collected' };
}

/** A command that never started because the run stopped before it (after a cancel, a lost node, bad credentials). */
const notRun = (c: CollectCommandView) => c.status === 'skipped' || (c.status === 'cancelled' && c.bytes === 0 && !!c.error?.startsWith('not run'));

/**
 * The finished run's result: the commands worth listing one by one (failed, partial, interrupted) and
 * how many never ran, plus the reason to show (none for a plain cancel: the title says it).
 */
export function resultOf(j: CollectJob): { title: string; problems: CollectCommandView[]; notRun: number; reason?: string } {
  const all = j.manifest?.commands ?? j.commands;
  const problems = all.filter((c) => c.status !== 'ok' && !notRun(c));
  const reason = j.error && !(j.state === 'cancelled' && /cancelled by the user/.test(j.error)) ? j.error : undefined;
  return { title: resultTitle(j), problems, notRun: all.filter(notRun).length, reason };
}

/** The commands that did not complete (failed, partial, cancelled, not run). */
export function problemCommands(j: CollectJob): CollectCommandView[] {
  return (j.manifest?.commands ?? j.commands).filter((c) => c.status !== 'ok');
}

export function resultTitle(j: CollectJob): string {
  switch (j.state) {
    case 'done':
      return 'Collected every file';
    case 'partial':
      return 'Collected, with some files missing or incomplete';
    case 'failed':
      return 'The collection failed';
    case 'cancelled':
      return 'Cancelled';
    default:
      return 'Collecting';
  }
}

/** A finished collection worth opening: complete, partial, or cancelled after some files were written. */
export function canOpen(j: CollectJob): boolean {
  if (j.state === 'done' || j.state === 'partial') return true;
  return j.state === 'cancelled' && j.commands.some((c) => c.bytes > 0);
}

export const isFinished = (j: CollectJob | undefined): boolean => !!j && j.state !== 'connecting' && j.state !== 'running';
