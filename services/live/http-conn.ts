// One HTTP/1.1 connection (plain or TLS) that we own end to end. NTLM authenticates the TCP connection,
// so the WinRM client must know exactly which socket a request goes out on and notice when it drops;
// Node's Agent hides both. Requests always carry Content-Length; responses may use Content-Length or
// chunked encoding.
import net from 'node:net';
import tls from 'node:tls';
import { RemoteError } from './remote-shell.ts';

export interface HttpResponse { status: number; reason: string; headers: Map<string, string[]>; body: Uint8Array }

export interface ConnectOptions {
  host: string; port: number; tls: boolean;
  /** TLS certificate verification; on unless explicitly turned off. */
  rejectUnauthorized?: boolean; ca?: string | Buffer;
  connectTimeoutMs?: number; signal?: AbortSignal;
}

export class HttpConnection {
  private socket: net.Socket;
  private buf: Buffer = Buffer.alloc(0);
  private waiter: (() => void) | null = null;
  private error: Error | null = null;
  closed = false;
  private busy = false;

  private constructor(socket: net.Socket) {
    this.socket = socket;
    socket.on('data', (d: Buffer) => { this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d; this.wake(); });
    socket.on('end', () => { this.closed = true; this.wake(); });
    socket.on('close', () => { this.closed = true; this.wake(); });
    socket.on('error', (e) => { this.error = e; this.closed = true; this.wake(); });
  }

  private wake() { const w = this.waiter; this.waiter = null; w?.(); }

  static connect(o: ConnectOptions): Promise<HttpConnection> {
    return new Promise((resolve, reject) => {
      const sock = o.tls
        ? tls.connect({ host: o.host, port: o.port, servername: net.isIP(o.host) ? undefined : o.host, rejectUnauthorized: o.rejectUnauthorized !== false, ca: o.ca })
        : net.connect({ host: o.host, port: o.port });
      let settled = false;
      const done = (e: Error | null) => {
        if (settled) return; settled = true;
        clearTimeout(timer); o.signal?.removeEventListener('abort', onAbort);
        sock.removeListener('error', onErr);
        if (e) { sock.destroy(); reject(e); } else { sock.setNoDelay(true); resolve(new HttpConnection(sock)); }
      };
      const onErr = (e: NodeJS.ErrnoException) => {
        const tlsErr = o.tls && (e.code?.startsWith('ERR_TLS') || /certificate|self.signed|unable to verify/i.test(e.message));
        done(tlsErr
          ? new RemoteError('tls', `TLS certificate of ${o.host}:${o.port} not trusted (${e.code ?? e.message}); check the node's certificate or pass --insecure-skip-tls-verify`)
          : new RemoteError(e.code === 'ECONNREFUSED' ? 'refused' : 'connection', `cannot connect to ${o.host}:${o.port}: ${e.code ?? e.message}`, true));
      };
      const onAbort = () => done(o.signal?.reason instanceof Error ? o.signal.reason : new RemoteError('cancelled', 'cancelled'));
      const timer = setTimeout(() => done(new RemoteError('connection', `connecting to ${o.host}:${o.port} timed out`, true)), o.connectTimeoutMs ?? 15000);
      sock.once('error', onErr);
      sock.once(o.tls ? 'secureConnect' : 'connect', () => done(null));
      if (o.signal) { if (o.signal.aborted) onAbort(); else o.signal.addEventListener('abort', onAbort, { once: true }); }
    });
  }

  close(): void { this.closed = true; this.socket.destroy(); }

  /** Sends one request and reads its response. Rejects with RemoteError('connection', retryable) if the peer closed before answering. */
  async request(method: string, path: string, headers: Record<string, string>, body: Uint8Array, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<HttpResponse> {
    if (this.busy) throw new Error('HttpConnection is single-flight');
    if (this.closed) throw new RemoteError('connection', 'connection closed', true);
    this.busy = true;
    const onAbort = () => { this.error = opts.signal?.reason instanceof Error ? opts.signal.reason : new RemoteError('cancelled', 'cancelled'); this.close(); };
    const timer = setTimeout(() => { this.error = new RemoteError('timeout', `no HTTP response within ${Math.round(opts.timeoutMs / 1000)} s`, true); this.close(); }, opts.timeoutMs);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      if (opts.signal?.aborted) onAbort();
      let head = `${method} ${path} HTTP/1.1\r\n`;
      for (const [k, v] of Object.entries({ ...headers, 'Content-Length': String(body.length) })) head += `${k}: ${v}\r\n`;
      head += '\r\n';
      this.socket.write(Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from(body.buffer, body.byteOffset, body.length)]));
      return await this.readResponse(method);
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      this.busy = false;
    }
  }

  private async need(pred: () => boolean): Promise<void> {
    while (!pred()) {
      if (this.error) throw this.error instanceof RemoteError ? this.error : new RemoteError('connection', `connection lost: ${(this.error as NodeJS.ErrnoException).code ?? this.error.message}`, true);
      if (this.closed) throw new RemoteError('connection', 'the server closed the connection', true);
      await new Promise<void>((r) => { this.waiter = r; });
    }
  }

  private async readResponse(method: string): Promise<HttpResponse> {
    let end = -1;
    await this.need(() => (end = this.buf.indexOf('\r\n\r\n')) >= 0);
    const headText = this.buf.subarray(0, end).toString('latin1');
    this.buf = this.buf.subarray(end + 4);
    const [statusLine, ...lines] = headText.split('\r\n');
    const sm = /^HTTP\/1\.[01] (\d{3}) ?(.*)$/.exec(statusLine);
    if (!sm) throw new RemoteError('protocol', `not an HTTP response: ${statusLine.slice(0, 60)}`);
    const headers = new Map<string, string[]>();
    for (const l of lines) {
      const i = l.indexOf(':');
      if (i <= 0) continue;
      const k = l.slice(0, i).trim().toLowerCase();
      headers.set(k, [...(headers.get(k) ?? []), l.slice(i + 1).trim()]);
    }
    const status = Number(sm[1]);
    let body: Buffer;
    const te = headers.get('transfer-encoding')?.join(',') ?? '';
    const cl = headers.get('content-length')?.[0];
    if (method === 'HEAD' || status === 204 || status === 304) body = Buffer.alloc(0);
    else if (/chunked/i.test(te)) {
      const parts: Buffer[] = [];
      while (true) {
        let le = -1;
        await this.need(() => (le = this.buf.indexOf('\r\n')) >= 0);
        const size = parseInt(this.buf.subarray(0, le).toString('latin1'), 16);
        if (!Number.isFinite(size)) throw new RemoteError('protocol', 'bad chunk size');
        await this.need(() => this.buf.length >= le + 2 + size + 2);
        parts.push(this.buf.subarray(le + 2, le + 2 + size));
        this.buf = this.buf.subarray(le + 2 + size + 2);
        if (size === 0) break;
      }
      body = Buffer.concat(parts);
    } else if (cl !== undefined) {
      const n = Number(cl);
      await this.need(() => this.buf.length >= n);
      body = this.buf.subarray(0, n);
      this.buf = this.buf.subarray(n);
    } else {
      // Read to close.
      await this.need(() => this.closed).catch(() => undefined);
      body = this.buf; this.buf = Buffer.alloc(0);
    }
    if ((headers.get('connection')?.[0] ?? '').toLowerCase() === 'close') this.close();
    return { status, reason: sm[2], headers, body: new Uint8Array(body) };
  }
}
