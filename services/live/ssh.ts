// The SSH backend: ssh2 to the node's OpenSSH server (key or password), host key checked against
// known_hosts, each script run as `powershell -NoProfile -NonInteractive -EncodedCommand …`.
import { Client, type ConnectConfig } from 'ssh2';
import { createHash, createHmac } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { powershellCommand, PS_PROLOGUE } from './wsman.ts';
import { decodeClixml } from './clixml.ts';
import { RemoteError, withTimeout, type RemoteShell, type RunOptions, type RunResult } from './remote-shell.ts';
import { concat } from './crypto.ts';

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

/** Host patterns as known_hosts writes them: `host` on port 22, `[host]:port` otherwise. */
const hostPattern = (host: string, port: number) => (port === 22 ? host : `[${host}]:${port}`);

export async function checkKnownHost(file: string, host: string, port: number, key: Buffer): Promise<'match' | 'unknown' | 'mismatch'> {
  let text = '';
  try { text = await fs.readFile(file, 'utf8'); } catch { return 'unknown'; }
  const want = hostPattern(host, port);
  const keyB64 = key.toString('base64');
  let seen = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    let fields = line.split(/\s+/);
    if (fields[0].startsWith('@')) { if (fields[0] === '@revoked' && fields.slice(1).some((f) => f === keyB64)) return 'mismatch'; fields = fields.slice(1); }
    const [hosts, , blob] = fields;
    if (!hosts || !blob) continue;
    const hit = hosts.split(',').some((h) => {
      if (h.startsWith('|1|')) {
        const [, , salt, hash] = h.split('|');
        return createHmac('sha1', Buffer.from(salt, 'base64')).update(want).digest('base64') === hash;
      }
      return h.toLowerCase() === want.toLowerCase();
    });
    if (!hit) continue;
    seen = true;
    if (blob === keyB64) return 'match';
  }
  return seen ? 'mismatch' : 'unknown';
}

export class SshShell implements RemoteShell {
  readonly transport = 'ssh' as const;
  private client: Client | null = null;
  private hostKeyProblem: RemoteError | null = null;

  constructor(private o: SshOptions) {
    if (!o.password && !o.privateKey) throw new RemoteError('auth', 'SSH needs a private key or a password');
  }

  get target(): string { return `ssh://${this.o.user}@${this.o.host}:${this.o.port ?? 22}`; }

  async open(signal?: AbortSignal): Promise<void> {
    if (this.client) return;
    const port = this.o.port ?? 22;
    const knownHosts = this.o.knownHostsFile ?? path.join(os.homedir(), '.ssh', 'known_hosts');
    const verdicts: Promise<void>[] = [];
    const cfg: ConnectConfig = {
      host: this.o.host, port, username: this.o.user, readyTimeout: this.o.readyTimeoutMs ?? 20000,
      password: this.o.password, privateKey: this.o.privateKey, passphrase: this.o.passphrase,
      tryKeyboard: false,
      hostVerifier: (key: Buffer, verify: (ok: boolean) => void) => {
        const p = checkKnownHost(knownHosts, this.o.host, port, key).then(async (v) => {
          if (v === 'match') return verify(true);
          if (v === 'unknown' && this.o.acceptNewHostKey) {
            await fs.mkdir(path.dirname(knownHosts), { recursive: true });
            await fs.appendFile(knownHosts, `${hostPattern(this.o.host, port)} ${keyType(key)} ${key.toString('base64')}\n`, { mode: 0o600 });
            return verify(true);
          }
          this.hostKeyProblem = new RemoteError('auth', v === 'unknown'
            ? `host key of ${hostPattern(this.o.host, port)} (${keyType(key)} ${sshFingerprint(key)}) is not in ${knownHosts}; verify it and add it (ssh-keyscan), or allow adding new hosts`
            : `HOST KEY OF ${hostPattern(this.o.host, port)} HAS CHANGED (now ${keyType(key)} ${sshFingerprint(key)}; ${knownHosts} has another): refusing to connect`);
          verify(false);
        }, () => verify(false));
        verdicts.push(p);
      },
    };
    const client = new Client();
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => { client.end(); reject(new RemoteError('cancelled', 'cancelled')); };
      signal?.addEventListener('abort', onAbort, { once: true });
      client.once('ready', () => { signal?.removeEventListener('abort', onAbort); resolve(); });
      client.once('error', (e: Error & { level?: string; code?: string }) => {
        signal?.removeEventListener('abort', onAbort);
        Promise.all(verdicts).finally(() => {
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

function keyType(key: Buffer): string {
  const n = key.readUInt32BE(0);
  return key.subarray(4, 4 + n).toString('latin1');
}
