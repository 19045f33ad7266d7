// winrm-test-server: a WinRM server on 127.0.0.1 for testing hnsight's client (and checked against
// Debian's pywinrm). NTLMv2 with message encryption only (plaintext bodies are refused with 401, a wrong
// password with 401), WS-Man shell Create/Command/Receive/Signal/Delete, answers the collection commands
// from a fixture bundle's files. Faults and failures can be injected:
//   --timeouts N         the first N Receives of every command answer the w:TimedOut fault (2150858793)
//   --chunk-size N       at most N bytes of output per Receive (output arrives Running, Running, …, Done)
//   --http-chunked       responses use Transfer-Encoding: chunked instead of Content-Length
//   --drop-every N       every Nth encrypted request: the socket is destroyed without an answer
//   --shell-not-found N  the first N Commands answer "shell not found" (2150858843) and forget the shell
//   --tls-cert/--tls-key HTTPS (as on 5986): NTLM then plain SOAP inside TLS; --allow-basic also accepts Basic
// Usage: node --import tsx tools/winrm-test-server.ts --port N --user U --password-env VAR --fixtures BUNDLE_DIR [options]
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { NtlmServer, type NtlmSession } from '../services/live/ntlm.ts';
import { fromBase64, toBase64, utf8, fromUtf8 } from '../services/live/bytes.ts';
import { ENCRYPTED_CONTENT_TYPE, isEncryptedContentType, sealBody, unsealBody } from '../services/live/framing.ts';
import {
  ACTION, FAULT_ACTION, FAULT_SHELL_NOT_FOUND, FAULT_TIMED_OUT, RESPONSE_ACTION, commandResponseBody, createResponseBody, decodeEncodedCommand,
  faultBody, parseMessage, receiveResponseBody, responseEnvelope, signalResponseBody, type ParsedMessage,
} from '../services/live/wsman.ts';
import { find, findAll } from '../services/live/xml.ts';
import { COLLECT_COMMANDS, commandIdOf } from '../services/live/collect-commands.ts';
import { writeFrames, type FramedFile } from '../services/live/file-frames.ts';

export interface InjectOptions { timeouts?: number; chunkSize?: number; httpChunked?: boolean; dropEvery?: number; shellNotFound?: number }
export interface TestServerOptions {
  port: number; user: string; password: string; fixtures: string; inject?: InjectOptions; log?: (line: string) => void;
  /** HTTPS (like port 5986): NTLM-authenticated connections then carry plain SOAP inside TLS. */
  tls?: { key: string | Buffer; cert: string | Buffer };
  /** Accept Basic authentication (HTTPS only, as Windows requires for it to be useful). */
  allowBasic?: boolean;
}

export interface TestServerStats {
  auths: number; badPasswords: number; plaintextRefused: number; timeoutFaults: number; drops: number; shellNotFound: number;
  commands: string[]; signals: number; shellsCreated: number; shellsDeleted: number;
}

interface SocketState { ntlm: NtlmServer | null; session: NtlmSession | null; user: string }
interface Command { id: string; stdout: Uint8Array; stderr: Uint8Array; exitCode: number; outPos: number; errPos: number; receives: number; readyAt: number }
interface Shell { id: string; commands: Map<string, Command> }

export interface Answer { stdout: Uint8Array; stderr: Uint8Array; exitCode: number; delayMs?: number }

/** Decodes a bundle file the way it was written (UTF-16LE/BE with BOM, UTF-8 with or without BOM). */
export function decodeFixture(b: Uint8Array): string {
  if (b[0] === 0xff && b[1] === 0xfe) return new TextDecoder('utf-16le').decode(b.subarray(2));
  if (b[0] === 0xfe && b[1] === 0xff) return new TextDecoder('utf-16be').decode(b.subarray(2));
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return new TextDecoder('utf-8').decode(b.subarray(3));
  return new TextDecoder('utf-8').decode(b);
}

const psError = (msg: string) => utf8(`#< CLIXML\r\n<Objs Version="1.1.0.1" xmlns="http://schemas.microsoft.com/powershell/2004/04"><S S="Error">${msg.replace(/&/g, '&amp;').replace(/</g, '&lt;')}_x000D__x000A_</S></Objs>`);

/** The files under `dir`, named relative to it with forward slashes (none when it does not exist). */
export async function framedFixtures(dir: string): Promise<FramedFile[]> {
  const out: FramedFile[] = [];
  const walk = async (d: string, rel: string): Promise<void> => {
    let list;
    try { list = await fs.readdir(d, { withFileTypes: true }); } catch { return; }
    for (const e of list.sort((a, b) => a.name.localeCompare(b.name))) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(path.join(d, e.name), r);
      else if (e.isFile()) out.push({ name: r, bytes: new Uint8Array(await fs.readFile(path.join(d, e.name))) });
    }
  };
  await walk(dir, '');
  return out;
}

/** What a node with this fixture bundle would print for a command line (raw or `powershell -EncodedCommand`). */
export async function answerFromFixtures(fixtures: string, commandLine: string): Promise<Answer> {
  const readFile = async (name: string): Promise<Uint8Array | null> => {
    try { return utf8(decodeFixture(await fs.readFile(path.join(fixtures, name)))); } catch { return null; }
  };
  const script = decodeEncodedCommand(commandLine);
  if (script !== null) {
    const sleep = /# hnsight-test: sleep (\d+)/.exec(script);
    if (sleep) return { stdout: utf8('slept\r\n'), stderr: new Uint8Array(0), exitCode: 0, delayMs: Number(sleep[1]) };
    const echo = /# hnsight-test: echo (.*)/.exec(script);
    if (echo) return { stdout: utf8(echo[1] + '\r\n'), stderr: new Uint8Array(0), exitCode: 0 };
    const id = commandIdOf(script);
    const cmd = COLLECT_COMMANDS.find((c) => c.id === id);
    if (!cmd) return { stdout: new Uint8Array(0), stderr: psError('hnsight test server: unknown script'), exitCode: 1 };
    // A multi-file command (logs, CNI config): every file under the fixture's folder of that name, framed
    // byte for byte; no such folder is a node without those files (nothing printed, not an error).
    if (cmd.multi) return { stdout: writeFrames(await framedFixtures(path.join(fixtures, cmd.file))), stderr: new Uint8Array(0), exitCode: 0 };
    const data = await readFile(cmd.file);
    if (!data) return { stdout: new Uint8Array(0), stderr: psError(`The term '${cmd.title}' is not available on this node (no ${cmd.file} in the fixture bundle).`), exitCode: 1 };
    return { stdout: data, stderr: new Uint8Array(0), exitCode: 0 };
  }
  const cl = commandLine.trim().toLowerCase();
  const table: [RegExp, string][] = [[/^ipconfig/, 'ip.txt'], [/^route(\.exe)? print/, 'routes.txt'], [/^vfpctrl/, 'ports.txt'], [/^hnsdiag/, 'hnsdiag.txt'], [/^arp/, 'arp.txt']];
  for (const [re, file] of table) {
    if (re.test(cl)) { const d = await readFile(file); if (d) return { stdout: d, stderr: new Uint8Array(0), exitCode: 0 }; }
  }
  if (cl === 'hostname') return { stdout: utf8('winnode\r\n'), stderr: new Uint8Array(0), exitCode: 0 };
  const echo = /^echo (.*)$/i.exec(commandLine.trim());
  if (echo) return { stdout: utf8(echo[1] + '\r\n'), stderr: new Uint8Array(0), exitCode: 0 };
  return { stdout: new Uint8Array(0), stderr: utf8(`'${commandLine.split(' ')[0]}' is not recognized as an internal or external command,\r\noperable program or batch file.\r\n`), exitCode: 1 };
}

export async function startWinRmTestServer(o: TestServerOptions): Promise<{ port: number; url: string; stats: TestServerStats; close(): Promise<void> }> {
  const inject = o.inject ?? {};
  const log = o.log ?? (() => undefined);
  const stats: TestServerStats = { auths: 0, badPasswords: 0, plaintextRefused: 0, timeoutFaults: 0, drops: 0, shellNotFound: 0, commands: [], signals: 0, shellsCreated: 0, shellsDeleted: 0 };
  const sockets = new WeakMap<Socket, SocketState>();
  const shells = new Map<string, Shell>();
  const env = { random: (n: number) => new Uint8Array(randomBytes(n)), now: () => Date.now() };
  let encryptedCount = 0;
  let shellNotFoundLeft = inject.shellNotFound ?? 0;
  const open = new Set<Socket>();

  const handler = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const sock = req.socket;
    let st = sockets.get(sock);
    if (!st) { st = { ntlm: null, session: null, user: '' }; sockets.set(sock, st); }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = new Uint8Array(Buffer.concat(chunks));
    const send = (status: number, headers: Record<string, string>, data: Uint8Array = new Uint8Array(0)) => {
      if (!inject.httpChunked || data.length === 0) headers['Content-Length'] = String(data.length);
      res.writeHead(status, headers);
      if (inject.httpChunked && data.length) { const h = Math.floor(data.length / 2); res.write(data.subarray(0, h)); res.end(data.subarray(h)); } else res.end(data);
    };
    const auth = req.headers.authorization ?? '';
    const m = /^(Negotiate|NTLM) (.+)$/i.exec(auth);
    if (m) {
      const token = fromBase64(m[2]);
      const type = token.length >= 12 ? token[8] : 0;
      if (type === 1) {
        st.ntlm = new NtlmServer({ user: o.user, password: o.password }, env);
        st.session = null;
        let challenge: Uint8Array;
        try { challenge = st.ntlm.challengeMessage(token); } catch { return send(400, {}); }
        return send(401, { 'WWW-Authenticate': `Negotiate ${toBase64(challenge)}` });
      }
      if (type === 3 && st.ntlm) {
        const r = st.ntlm.accept(token);
        st.ntlm = null;
        if (!r.ok) { stats.badPasswords++; log(`auth refused: ${r.reason}`); return send(401, { 'WWW-Authenticate': 'Negotiate' }); }
        st.session = r.session; st.user = r.user; stats.auths++;
        log(`authenticated ${r.domain ? r.domain + '\\' : ''}${r.user}`);
        if (body.length) { stats.plaintextRefused++; st.session = null; log('plaintext body refused'); return send(401, { 'WWW-Authenticate': 'Negotiate' }); }
        return send(200, {});
      }
      return send(401, { 'WWW-Authenticate': 'Negotiate' });
    }
    const challenge = o.tls && o.allowBasic ? { 'WWW-Authenticate': 'Negotiate, Basic realm="WSMAN"' } : { 'WWW-Authenticate': 'Negotiate' };
    const basic = /^Basic (.+)$/i.exec(auth);
    let basicOk = false;
    if (basic) {
      const [u, ...rest] = Buffer.from(basic[1], 'base64').toString('utf8').split(':');
      if (!o.tls || !o.allowBasic) { log('Basic refused (not enabled / not over HTTPS)'); return send(401, challenge); }
      if (u.toLowerCase() !== o.user.toLowerCase() || rest.join(':') !== o.password) { stats.badPasswords++; log('Basic: wrong user name or password'); return send(401, challenge); }
      basicOk = true; stats.auths++;
    }
    if (!st.session && !basicOk) {
      if (body.length && !isEncryptedContentType(req.headers['content-type'])) stats.plaintextRefused++;
      return send(401, challenge);
    }
    if (!body.length) return send(200, {});
    const sealed = isEncryptedContentType(req.headers['content-type']);
    if (!sealed && !o.tls) {
      stats.plaintextRefused++; log('plaintext body refused (AllowUnencrypted=false)');
      return send(401, challenge);
    }
    encryptedCount++;
    if (inject.dropEvery && encryptedCount % inject.dropEvery === 0) { stats.drops++; log('dropping the socket (injected)'); sock.destroy(); return; }
    let msg: ParsedMessage;
    const session = st.session;
    if (sealed && !session) return send(400, {});
    try { msg = parseMessage(fromUtf8(sealed ? unsealBody(session!, body) : body)); } catch (e) { log(`bad request: ${(e as Error).message}`); return send(400, {}); }
    const reply = (status: number, action: string, xml: string) => {
      const bytes = utf8(responseEnvelope(action, msg.messageId, `uuid:${randomUUID().toUpperCase()}`, xml));
      return sealed ? send(status, { 'Content-Type': ENCRYPTED_CONTENT_TYPE }, sealBody(session!, bytes)) : send(status, { 'Content-Type': 'application/soap+xml;charset=UTF-8' }, bytes);
    };
    const fault = (code: number, reason: string, sub = 'w:InternalError') => reply(500, FAULT_ACTION, faultBody(code, reason, sub));
    const to = `${o.tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as { port: number }).port}/wsman`;
    const opTimeoutMs = (() => { const t = /PT([\d.]+)S/.exec(find(msg.root, 'OperationTimeout')?.text ?? ''); return t ? Number(t[1]) * 1000 : 20000; })();
    const shell = msg.shellId ? shells.get(msg.shellId) : undefined;
    switch (msg.action) {
      case ACTION.create: {
        const id = randomUUID().toUpperCase();
        shells.set(id, { id, commands: new Map() }); stats.shellsCreated++;
        return reply(200, RESPONSE_ACTION[msg.action], createResponseBody(to, id));
      }
      case ACTION.command: {
        if (!shell) return fault(FAULT_SHELL_NOT_FOUND, 'The request for the Windows Remote Shell with ShellId failed because the shell was not found on the server.', 'w:InvalidSelectors');
        if (shellNotFoundLeft > 0) {
          shellNotFoundLeft--; stats.shellNotFound++; shells.delete(shell.id);
          return fault(FAULT_SHELL_NOT_FOUND, 'The request for the Windows Remote Shell with ShellId failed because the shell was not found on the server.', 'w:InvalidSelectors');
        }
        const cmdText = find(msg.body, 'Command')?.text.trim() ?? '';
        const args = find(msg.body, 'Arguments')?.text.trim() ?? '';
        const line = args ? `${cmdText} ${args}` : cmdText;
        const a = await answerFromFixtures(o.fixtures, line);
        const script = decodeEncodedCommand(line);
        stats.commands.push(script ? `ps:${commandIdOf(script) ?? 'script'}` : line);
        const id = randomUUID().toUpperCase();
        shell.commands.set(id, { id, stdout: a.stdout, stderr: a.stderr, exitCode: a.exitCode, outPos: 0, errPos: 0, receives: 0, readyAt: Date.now() + (a.delayMs ?? 0) });
        return reply(200, RESPONSE_ACTION[msg.action], commandResponseBody(id));
      }
      case ACTION.receive: {
        if (!shell) return fault(FAULT_SHELL_NOT_FOUND, 'The shell was not found on the server.', 'w:InvalidSelectors');
        const cid = findAll(msg.body, 'DesiredStream')[0]?.attrs.CommandId ?? '';
        const c = shell.commands.get(cid);
        if (!c) return fault(2150858843, 'The command was not found.', 'w:InvalidSelectors');
        c.receives++;
        if (c.receives <= (inject.timeouts ?? 0)) { stats.timeoutFaults++; return fault(FAULT_TIMED_OUT, 'The WS-Management service cannot complete the operation within the time specified in OperationTimeout.', 'w:TimedOut'); }
        const wait = c.readyAt - Date.now();
        if (wait > 0) {
          await new Promise((r) => setTimeout(r, Math.min(wait, opTimeoutMs)));
          if (sock.destroyed) return;
          if (Date.now() < c.readyAt) { stats.timeoutFaults++; return fault(FAULT_TIMED_OUT, 'The WS-Management service cannot complete the operation within the time specified in OperationTimeout.', 'w:TimedOut'); }
        }
        const size = inject.chunkSize ?? 64 * 1024;
        const parts: { stream: 'stdout' | 'stderr'; data: Uint8Array; end?: boolean }[] = [];
        let budget = size;
        if (c.outPos < c.stdout.length) { const d = c.stdout.subarray(c.outPos, c.outPos + budget); c.outPos += d.length; budget -= d.length; parts.push({ stream: 'stdout', data: d }); }
        if (budget > 0 && c.errPos < c.stderr.length) { const d = c.stderr.subarray(c.errPos, c.errPos + budget); c.errPos += d.length; parts.push({ stream: 'stderr', data: d }); }
        const done = c.outPos >= c.stdout.length && c.errPos >= c.stderr.length;
        if (done) parts.push({ stream: 'stdout', data: new Uint8Array(0), end: true }, { stream: 'stderr', data: new Uint8Array(0), end: true });
        return reply(200, RESPONSE_ACTION[msg.action], receiveResponseBody(cid, parts, done ? c.exitCode : null));
      }
      case ACTION.signal: {
        stats.signals++;
        const cid = find(msg.body, 'Signal')?.attrs.CommandId ?? '';
        shell?.commands.delete(cid);
        return reply(200, RESPONSE_ACTION[msg.action], signalResponseBody());
      }
      case ACTION.delete: {
        if (shell) { shells.delete(shell.id); stats.shellsDeleted++; }
        return reply(200, RESPONSE_ACTION[msg.action], '');
      }
      default:
        return fault(2150858793 - 1, `unsupported action ${msg.action}`, 'a:ActionNotSupported');
    }
  };
  const server = o.tls ? https.createServer({ key: o.tls.key, cert: o.tls.cert }, handler) : http.createServer(handler);
  server.on(o.tls ? 'secureConnection' : 'connection', (s: Socket) => { open.add(s); s.on('close', () => open.delete(s)); });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(o.port, '127.0.0.1', () => resolve()); });
  const port = (server.address() as { port: number }).port;
  return {
    port, url: `${o.tls ? 'https' : 'http'}://127.0.0.1:${port}/wsman`, stats,
    close: () => new Promise<void>((resolve) => { for (const s of open) s.destroy(); server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

async function cli(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' }, user: { type: 'string' }, 'password-env': { type: 'string' }, fixtures: { type: 'string' },
      timeouts: { type: 'string' }, 'chunk-size': { type: 'string' }, 'http-chunked': { type: 'boolean' }, 'drop-every': { type: 'string' },
      'shell-not-found': { type: 'string' }, quiet: { type: 'boolean' },
      'tls-cert': { type: 'string' }, 'tls-key': { type: 'string' }, 'allow-basic': { type: 'boolean' },
    },
  });
  const fail = (m: string) => { process.stderr.write(`winrm-test-server: ${m}\nusage: winrm-test-server --port N --user U --password-env VAR --fixtures BUNDLE_DIR [--timeouts N] [--chunk-size N] [--http-chunked] [--drop-every N] [--shell-not-found N] [--tls-cert PEM --tls-key PEM [--allow-basic]]\n`); return 2; };
  if (!values.port || !values.user || !values['password-env'] || !values.fixtures) return fail('--port, --user, --password-env and --fixtures are required');
  const password = process.env[values['password-env']];
  if (!password) return fail(`environment variable ${values['password-env']} is not set`);
  const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  const s = await startWinRmTestServer({
    port: Number(values.port), user: values.user, password, fixtures: path.resolve(values.fixtures),
    inject: { timeouts: num(values.timeouts), chunkSize: num(values['chunk-size']), httpChunked: values['http-chunked'], dropEvery: num(values['drop-every']), shellNotFound: num(values['shell-not-found']) },
    tls: values['tls-cert'] && values['tls-key'] ? { cert: await fs.readFile(values['tls-cert']), key: await fs.readFile(values['tls-key']) } : undefined,
    allowBasic: values['allow-basic'],
    log: values.quiet ? undefined : (l) => process.stderr.write(`winrm-test-server: ${l}\n`),
  });
  process.stdout.write(`winrm-test-server listening on ${s.url}\n`);
  await new Promise<void>((resolve) => { process.once('SIGINT', resolve); process.once('SIGTERM', resolve); });
  await s.close();
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  cli(process.argv.slice(2)).then((c) => { process.exitCode = c; }, (e) => { process.stderr.write(`winrm-test-server: ${(e as Error).message}\n`); process.exitCode = 2; });
}
