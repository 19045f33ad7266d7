// The WinRM backend: WS-Management shell over HTTP (NTLMv2 + message encryption, port 5985) or HTTPS
// (NTLM or Basic over TLS, port 5986). One authenticated connection per session; when it drops, the
// next request reconnects and re-authenticates (new keys, sequence numbers from 0).
import { randomBytes, randomUUID } from 'node:crypto';
import { HttpConnection, type HttpResponse } from './http-conn.ts';
import { NtlmClient, unwrapSpnego, type NtlmEnv, type NtlmSession } from './ntlm.ts';
import { fromBase64, fromUtf8, toBase64, utf8 } from './bytes.ts';
import { ENCRYPTED_CONTENT_TYPE, isEncryptedContentType, sealBody, unsealBody } from './framing.ts';
import {
  ACTION, FAULT_TIMED_OUT, FAULTS_REOPEN, commandBody, commandIdFromResponse, createShellBody, envelope, parseFault, parseMessage,
  parseReceive, powershellCommand, receiveBody, shellIdFromCreate, signalBody, PS_PROLOGUE, type ParsedMessage, type WsmanFault,
} from './wsman.ts';
import { decodeClixml } from './clixml.ts';
import { RemoteError, withTimeout, type RemoteShell, type RunOptions, type RunResult } from './remote-shell.ts';
import { concat } from './crypto.ts';

export interface WinRmOptions {
  /** `http://host[:5985]` or `https://host[:5986]`; `/wsman` is added when no path is given. */
  url: string;
  user: string;
  password: string;
  /** HTTPS only: 'basic' (local accounts, must be enabled on the node) or 'ntlm' (default). */
  auth?: 'ntlm' | 'basic';
  insecureSkipTlsVerify?: boolean;
  ca?: string;
  operationTimeoutSec?: number;
  connectTimeoutMs?: number;
  ntlmEnv?: NtlmEnv;
}

export class WsmanFaultError extends RemoteError {
  constructor(readonly fault: WsmanFault) {
    super('remote', `WS-Management fault ${fault.wsmanCode ?? fault.subcode}: ${fault.reason || fault.message}`);
  }
}

const nodeEnv: NtlmEnv = { random: (n) => new Uint8Array(randomBytes(n)), now: () => Date.now() };

export function parseWinRmUrl(url: string): URL {
  let u: URL;
  try { u = new URL(url); } catch { throw new RemoteError('protocol', `not a WinRM URL: ${url}`); }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new RemoteError('protocol', `WinRM URL must be http:// or https://, not ${u.protocol}`);
  if (u.username || u.password) throw new RemoteError('protocol', 'put the user in --user and the password in an environment variable, not in the URL');
  if (!u.port) u.port = u.protocol === 'https:' ? '5986' : '5985';
  if (u.pathname === '/' || u.pathname === '') u.pathname = '/wsman';
  return u;
}

/** Sends SOAP messages on one authenticated, (on HTTP) sealed connection. */
export class WinRmTransport {
  readonly url: URL;
  private conn: HttpConnection | null = null;
  private session: NtlmSession | null = null;
  private env: NtlmEnv;
  /** How many times a connection was (re)authenticated; tests read it. */
  authCount = 0;

  constructor(private o: WinRmOptions) {
    this.url = parseWinRmUrl(o.url);
    this.env = o.ntlmEnv ?? nodeEnv;
    if (this.url.protocol === 'http:' && o.auth === 'basic') throw new RemoteError('protocol', 'Basic authentication sends the password in clear text; use https:// (port 5986) for Basic, or NTLM over http');
  }

  get target(): string { return this.url.href; }
  private get https() { return this.url.protocol === 'https:'; }

  close(): void { this.conn?.close(); this.conn = null; this.session = null; }

  private async connect(signal?: AbortSignal): Promise<void> {
    this.close();
    const conn = await HttpConnection.connect({
      host: this.url.hostname.replace(/^\[|\]$/g, ''), port: Number(this.url.port), tls: this.https,
      rejectUnauthorized: !this.o.insecureSkipTlsVerify, ca: this.o.ca, connectTimeoutMs: this.o.connectTimeoutMs, signal,
    });
    this.conn = conn;
    if (this.o.auth === 'basic') return; // header on every request
    const ntlm = new NtlmClient({ user: this.o.user, password: this.o.password }, this.env);
    const base = { 'Host': this.url.host, 'Content-Type': 'application/soap+xml;charset=UTF-8', 'User-Agent': 'hnsight' };
    const r1 = await conn.request('POST', this.url.pathname, { ...base, Authorization: `Negotiate ${toBase64(ntlm.negotiateMessage())}` }, new Uint8Array(0), { timeoutMs: 30000, signal });
    const token = challengeToken(r1);
    if (r1.status !== 401 || !token) {
      throw new RemoteError(r1.status === 401 ? 'auth' : 'protocol', r1.status === 401
        ? `${this.url.host} does not offer NTLM (Negotiate) authentication`
        : `unexpected HTTP ${r1.status} to the NTLM negotiate message`);
    }
    let type3: Uint8Array;
    try { type3 = ntlm.authenticateMessage(unwrapSpnego(token)); } catch (e) { throw new RemoteError('auth', `NTLM: ${(e as Error).message}`); }
    const r2 = await conn.request('POST', this.url.pathname, { ...base, Authorization: `Negotiate ${toBase64(type3)}` }, new Uint8Array(0), { timeoutMs: 30000, signal });
    if (r2.status === 401) throw new RemoteError('auth', `${this.url.host} refused the user name or password (HTTP 401)`);
    if (r2.status !== 200) throw new RemoteError('protocol', `unexpected HTTP ${r2.status} after NTLM authentication`);
    this.session = ntlm.session;
    this.authCount++;
  }

  /** Posts one SOAP message and returns the parsed response; WS-Man faults throw WsmanFaultError. */
  async post(xml: string, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<ParsedMessage> {
    for (let attempt = 0; ; attempt++) {
      try {
        if (!this.conn || this.conn.closed) await this.connect(opts.signal);
        return await this.postOnce(xml, opts);
      } catch (e) {
        // A connection that dropped before answering: reconnect and re-authenticate once.
        if (e instanceof RemoteError && e.retryable && e.kind === 'connection' && attempt === 0 && !opts.signal?.aborted) { this.close(); continue; }
        throw e;
      }
    }
  }

  private async postOnce(xml: string, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<ParsedMessage> {
    const conn = this.conn!;
    const plain = utf8(xml);
    const headers: Record<string, string> = { Host: this.url.host, 'User-Agent': 'hnsight' };
    let body: Uint8Array;
    if (this.session && !this.https) {
      headers['Content-Type'] = ENCRYPTED_CONTENT_TYPE;
      body = sealBody(this.session, plain);
    } else {
      headers['Content-Type'] = 'application/soap+xml;charset=UTF-8';
      if (this.o.auth === 'basic') headers.Authorization = `Basic ${toBase64(utf8(`${this.o.user}:${this.o.password}`))}`;
      body = plain;
    }
    const res = await conn.request('POST', this.url.pathname, headers, body, opts);
    if (res.status === 401) {
      this.close();
      throw new RemoteError('auth', `${this.url.host} refused the request (HTTP 401): wrong user name or password, or the session was not accepted`);
    }
    let text: string;
    const ct = res.headers.get('content-type')?.join(';');
    if (isEncryptedContentType(ct)) {
      if (!this.session) throw new RemoteError('protocol', 'encrypted response on a connection without NTLM session');
      try { text = fromUtf8(unsealBody(this.session, res.body)); } catch (e) { this.close(); throw new RemoteError('protocol', `cannot decrypt the response: ${(e as Error).message}`); }
    } else {
      if (this.session && !this.https && res.body.length) { this.close(); throw new RemoteError('protocol', 'the server answered in plain text on an encrypted session'); }
      text = fromUtf8(res.body);
    }
    if (res.status !== 200 && res.status !== 500) throw new RemoteError('protocol', `unexpected HTTP ${res.status} ${res.reason}`);
    if (!text.trim()) throw new RemoteError('protocol', `empty HTTP ${res.status} response`);
    let m: ParsedMessage;
    try { m = parseMessage(text); } catch (e) { throw new RemoteError('protocol', `unreadable SOAP response: ${(e as Error).message}`); }
    const fault = parseFault(m);
    if (fault) throw new WsmanFaultError(fault);
    if (res.status !== 200) throw new RemoteError('protocol', `HTTP ${res.status} without a SOAP fault`);
    return m;
  }
}

function challengeToken(r: HttpResponse): Uint8Array | null {
  for (const h of r.headers.get('www-authenticate') ?? []) {
    for (const part of h.split(',')) {
      const m = /^\s*(?:Negotiate|NTLM)\s+([A-Za-z0-9+/=]+)\s*$/i.exec(part);
      if (m) return fromBase64(m[1]);
    }
  }
  return null;
}

export interface WinRmShellOptions extends WinRmOptions {
  /** Tests: observe retries. */
  onEvent?: (e: { type: 'timeout-fault' | 'shell-reopened' | 'reconnected' }) => void;
}

/** RemoteShell over WinRM: one WS-Man shell reused for every command, reopened when the node loses it. */
export class WinRmShell implements RemoteShell {
  readonly transport = 'winrm' as const;
  readonly wsman: WinRmTransport;
  private shellId: string | null = null;
  private opTimeout: number;

  constructor(private o: WinRmShellOptions) {
    this.wsman = new WinRmTransport(o);
    this.opTimeout = o.operationTimeoutSec ?? 20;
  }

  get target(): string { return this.wsman.target; }

  private msg(action: string, extra: { shellId?: string; options?: Record<string, string>; body?: string } = {}): string {
    return envelope({ to: this.wsman.url.href, action, messageId: `uuid:${randomUUID().toUpperCase()}`, operationTimeoutSec: this.opTimeout, ...extra });
  }
  private get httpTimeout() { return (this.opTimeout + 10) * 1000; }

  async open(signal?: AbortSignal): Promise<void> {
    if (this.shellId) return;
    const c = createShellBody(65001);
    const r = await this.wsman.post(this.msg(ACTION.create, c), { timeoutMs: this.httpTimeout, signal });
    this.shellId = shellIdFromCreate(r);
  }

  async run(script: string, opts: RunOptions = {}): Promise<RunResult> {
    const { command, args } = powershellCommand(PS_PROLOGUE + '\n' + script);
    const t = withTimeout(opts.signal, opts.timeoutMs, 'the command');
    try {
      for (let reopen = 0; ; reopen++) {
        try {
          await this.open(t.signal);
          return await this.runIn(this.shellId!, command, args, opts, t.signal);
        } catch (e) {
          if (e instanceof WsmanFaultError && FAULTS_REOPEN.includes(e.fault.wsmanCode ?? -1) && reopen < 2) {
            this.shellId = null;
            this.o.onEvent?.({ type: 'shell-reopened' });
            continue;
          }
          throw t.signal.aborted && t.signal.reason instanceof RemoteError ? t.signal.reason : e;
        }
      }
    } finally { t.dispose(); }
  }

  private async runIn(shellId: string, command: string, args: string[], opts: RunOptions, signal: AbortSignal): Promise<RunResult> {
    const post = (xml: string) => this.wsman.post(xml, { timeoutMs: this.httpTimeout, signal });
    const cr = await post(this.msg(ACTION.command, { shellId, ...commandBody(command, args, true) }));
    const commandId = commandIdFromResponse(cr);
    const out: Uint8Array[] = [];
    const err: Uint8Array[] = [];
    try {
      while (true) {
        let rr: ParsedMessage;
        try {
          rr = await post(this.msg(ACTION.receive, { shellId, body: receiveBody(commandId) }));
        } catch (e) {
          if (e instanceof WsmanFaultError && e.fault.wsmanCode === FAULT_TIMED_OUT) { this.o.onEvent?.({ type: 'timeout-fault' }); continue; }
          throw e;
        }
        const chunk = parseReceive(rr);
        for (const b of chunk.stdout) { out.push(b); opts.onStdout?.(b); }
        for (const b of chunk.stderr) { err.push(b); opts.onStderr?.(b); }
        if (chunk.done) {
          await this.signal(shellId, commandId).catch(() => undefined);
          return { stdout: concat(...out), stderr: decodeClixml(fromUtf8(concat(...err))), exitCode: chunk.exitCode ?? 0 };
        }
      }
    } catch (e) {
      // Stop the remote command (timeout, cancel, error): a fresh, short request that ignores the aborted signal.
      await this.signal(shellId, commandId).catch(() => undefined);
      throw e;
    }
  }

  private async signal(shellId: string, commandId: string): Promise<void> {
    await this.wsman.post(this.msg(ACTION.signal, { shellId, body: signalBody(commandId) }), { timeoutMs: 10000 });
  }

  async close(): Promise<void> {
    try {
      if (this.shellId) await this.wsman.post(this.msg(ACTION.delete, { shellId: this.shellId }), { timeoutMs: 10000 });
    } catch { /* the node may already be gone */ }
    this.shellId = null;
    this.wsman.close();
  }
}
