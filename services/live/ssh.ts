// The SSH backend: ssh2 to the node's OpenSSH server (key or password), host key checked against
// known_hosts, each script run as `powershell -NoProfile -NonInteractive -EncodedCommand …`.
// ssh2 is loaded when a collection over SSH starts, not with every server (≈ 6.5 MiB of heap).
import type { Client, ConnectConfig, ServerHostKeyAlgorithm } from 'ssh2';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { powershellCommand, PS_PROLOGUE } from './wsman.ts';
import { decodeClixml } from './clixml.ts';
import { RemoteError, withTimeout, type RemoteShell, type RunOptions, type RunResult } from './remote-shell.ts';
import { concat } from './crypto.ts';
import { addKnownHost, hostPattern, judgeKnownHost, keyType, knownTypes, readKnownHosts, type KnownHostVerdict } from './known-hosts.ts';

export interface SshOptions {
  host: string; port?: number; user: string;
  password?: string;
  privateKey?: string | Buffer; passphrase?: string;
  /** Default ~/.ssh/known_hosts. */
  knownHostsFile?: string;
  /** Trust-on-first-use: a host not in known_hosts is added (a changed key is always refused). */
  acceptNewHostKey?: boolean;
  readyTimeoutMs?: number;
}

export function sshFingerprint(key: Buffer): string {
  return 'SHA256:' + createHash('sha256').update(key).digest('base64').replace(/=+$/, '');
}

/** The verdict of the known_hosts file on `key` offered by `host`:`port` (known-hosts.ts says how it is read). */
export async function checkKnownHost(file: string, host: string, port: number, key: Buffer): Promise<KnownHostVerdict> {
  return judgeKnownHost(await readKnownHosts(file), host, port, key);
}

/** The host key algorithms for each key type known_hosts may list (ssh2's names). */
const ALGORITHMS_OF_TYPE: Record<string, ServerHostKeyAlgorithm[]> = {
  'ssh-ed25519': ['ssh-ed25519'],
  'ecdsa-sha2-nistp256': ['ecdsa-sha2-nistp256'],
  'ecdsa-sha2-nistp384': ['ecdsa-sha2-nistp384'],
  'ecdsa-sha2-nistp521': ['ecdsa-sha2-nistp521'],
  'ssh-rsa': ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa'],
};

export class SshShell implements RemoteShell {
  readonly transport = 'ssh' as const;
  private client: Client | null = null;
  private hostKeyProblem: RemoteError | null = null;
  /** What the user should know about this connection (a host key accepted but not saved). */
  readonly notices: string[] = [];

  constructor(private o: SshOptions) {
    if (!o.password && !o.privateKey) throw new RemoteError('auth', 'SSH needs a private key or a password');
  }

  get target(): string { return `ssh://${this.o.user}@${this.o.host}:${this.o.port ?? 22}`; }

  async open(signal?: AbortSignal): Promise<void> {
    if (this.client) return;
    const port = this.o.port ?? 22;
    const knownHosts = this.o.knownHostsFile ?? path.join(os.homedir(), '.ssh', 'known_hosts');
    const verdicts: Promise<void>[] = [];
    const known = await readKnownHosts(knownHosts);
    // As ssh does: ask first for the key types known_hosts lists for this host, so a host listed
    // with an ECDSA key (and also having an Ed25519 one) is checked against the key we know.
    const prepend = [...new Set(knownTypes(known, this.o.host, port).flatMap((t) => ALGORITHMS_OF_TYPE[t] ?? []))];
    const where = hostPattern(this.o.host, port);
    const cfg: ConnectConfig = {
      host: this.o.host, port, username: this.o.user, readyTimeout: this.o.readyTimeoutMs ?? 20000,
      password: this.o.password, privateKey: this.o.privateKey, passphrase: this.o.passphrase,
      tryKeyboard: false,
      // ssh2 applies the operations in key order, and `prepend` skips what the list has already: remove first.
      ...(prepend.length ? { algorithms: { serverHostKey: { remove: prepend, prepend, append: [] } } } : {}),
      hostVerifier: (key: Buffer, verify: (ok: boolean) => void) => {
        // Never rejects: a failure here must answer the handshake, not escape as an unhandled rejection.
        const p = this.verdict(knownHosts, port, key).then(
          (ok) => verify(ok),
          (e: unknown) => {
            this.hostKeyProblem = new RemoteError('auth', `cannot check the host key of ${where}: ${e instanceof Error ? e.message : String(e)}`);
            verify(false);
          },
        );
        verdicts.push(p);
      },
    };
    const { Client: SshClient } = await import('ssh2');
    const client = new SshClient();
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => { client.end(); reject(new RemoteError('cancelled', 'cancelled')); };
      signal?.addEventListener('abort', onAbort, { once: true });
      client.once('ready', () => { signal?.removeEventListener('abort', onAbort); resolve(); });
      client.once('error', (e: Error & { level?: string; code?: string }) => {
        signal?.removeEventListener('abort', onAbort);
        // The host checks settle either way (a failed one leaves hostKeyProblem): then the error is told.
        void Promise.allSettled(verdicts).then(() => {
          if (this.hostKeyProblem) return reject(this.hostKeyProblem);
          if (e.level === 'client-authentication') return reject(new RemoteError('auth', `${this.o.host} refused the SSH credentials for ${this.o.user}`));
          if (e.code === 'ECONNREFUSED') return reject(new RemoteError('refused', `cannot connect to ${this.o.host}:${port}: ECONNREFUSED`));
          if (/Timed out/i.test(e.message)) return reject(new RemoteError('timeout', `SSH handshake with ${this.o.host}:${port} timed out`));
          reject(new RemoteError('connection', `SSH to ${this.o.host}:${port} failed: ${e.code ?? e.message}`));
        });
      });
      client.connect(cfg);
    });
    client.on('error', () => undefined);
    client.on('close', () => { if (this.client === client) this.client = null; });
    this.client = client;
  }

  /** Decides on the offered key; records why when it refuses (hostKeyProblem) or accepts with a caveat (notices). */
  private async verdict(knownHosts: string, port: number, key: Buffer): Promise<boolean> {
    const where = hostPattern(this.o.host, port);
    const v = await checkKnownHost(knownHosts, this.o.host, port, key);
    const offered = `${keyType(key)} ${sshFingerprint(key)}`;
    if (v.verdict === 'match') return true;
    if (v.verdict === 'unknown' && this.o.acceptNewHostKey) {
      const r = await addKnownHost(knownHosts, this.o.host, port, key);
      if (!r.saved) this.notices.push(`the host key of ${where} (${offered}) was accepted for this connection only: it could not be saved to ${knownHosts} (${r.reason}), so it will be asked about again next time`);
      return true;
    }
    if (v.verdict === 'unknown') {
      const also = [
        v.otherTypes.length ? `${knownHosts} lists it only with a key of another type (${v.otherTypes.join(', ')}), which the node did not offer` : '',
        v.ca ? `${knownHosts} trusts a certificate authority for it, but hnsight does not check host certificates` : '',
      ].filter(Boolean);
      this.hostKeyProblem = new RemoteError('auth', `host key of ${where} (${offered}) is not in ${knownHosts}${also.length ? ` (${also.join('; ')})` : ''}; verify it and add it (ssh-keyscan), or allow adding new hosts`);
      return false;
    }
    this.hostKeyProblem = new RemoteError('auth', v.verdict === 'revoked'
      ? `the host key of ${where} (${offered}) is marked @revoked in ${knownHosts}: refusing to connect`
      : `HOST KEY OF ${where} HAS CHANGED (now ${offered}; ${knownHosts} has another key of that type): refusing to connect`);
    return false;
  }

  async run(script: string, opts: RunOptions = {}): Promise<RunResult> {
    await this.open(opts.signal);
    const client = this.client;
    if (!client) throw new RemoteError('connection', 'SSH connection closed');
    const { command, args } = powershellCommand(PS_PROLOGUE + '\n' + script);
    const line = [command.replace(/\.exe$/, ''), ...args].join(' ');
    const t = withTimeout(opts.signal, opts.timeoutMs, 'the command');
    try {
      return await new Promise<RunResult>((resolve, reject) => {
        client.exec(line, (err, stream) => {
          if (err) return reject(new RemoteError('connection', `SSH exec failed: ${err.message}`));
          const out: Uint8Array[] = [];
          const errs: Uint8Array[] = [];
          let code: number | null = null;
          const onAbort = () => { try { stream.signal('KILL'); } catch { /* ignore */ } stream.close(); reject(t.signal.reason instanceof RemoteError ? t.signal.reason : new RemoteError('cancelled', 'cancelled')); };
          if (t.signal.aborted) return onAbort();
          t.signal.addEventListener('abort', onAbort, { once: true });
          stream.on('data', (d: Buffer) => { const b = new Uint8Array(d); out.push(b); opts.onStdout?.(b); });
          stream.stderr.on('data', (d: Buffer) => { const b = new Uint8Array(d); errs.push(b); opts.onStderr?.(b); });
          stream.on('exit', (c: number | null) => { code = c; });
          stream.on('close', () => {
            t.signal.removeEventListener('abort', onAbort);
            if (t.signal.aborted) return;
            resolve({ stdout: concat(...out), stderr: decodeClixml(new TextDecoder().decode(concat(...errs))), exitCode: code ?? -1 });
          });
        });
      });
    } finally { t.dispose(); }
  }

  async close(): Promise<void> {
    this.client?.end();
    this.client = null;
  }
}
