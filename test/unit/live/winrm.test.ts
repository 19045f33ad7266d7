// The WinRM client against the in-repo test server (loopback only): NTLMv2 + sealing, WS-Man shell,
// injected timeouts, chunked output, dropped sockets, shell-not-found, bad password, plaintext refused.
import { afterEach, describe, expect, it } from 'vitest';
import path from 'node:path';
import { startWinRmTestServer, type InjectOptions } from '../../../tools/winrm-test-server.ts';
import { WinRmShell, WinRmTransport } from '../../../services/live/winrm.ts';
import { RemoteError } from '../../../services/live/remote-shell.ts';
import { HttpConnection } from '../../../services/live/http-conn.ts';
import { envelope, ACTION } from '../../../services/live/wsman.ts';
import { COLLECT_COMMANDS, scriptFor } from '../../../services/live/collect-commands.ts';
import { decodeFixture } from '../../../tools/winrm-test-server.ts';
import { promises as fs } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { NtlmClient } from '../../../services/live/ntlm.ts';
import { fromBase64, toBase64 } from '../../../services/live/bytes.ts';

const FIXTURES = path.resolve(__dirname, '../../../assets/demo/l2bridge-node');
const PASSWORD = 'Tr0ub4dor&3-sealed';
const closers: (() => Promise<void>)[] = [];
afterEach(async () => { while (closers.length) await closers.pop()!(); });

async function server(inject: InjectOptions = {}) {
  const s = await startWinRmTestServer({ port: 0, user: 'hnsight', password: PASSWORD, fixtures: FIXTURES, inject });
  closers.push(s.close);
  return s;
}
function shell(url: string, extra: Partial<ConstructorParameters<typeof WinRmShell>[0]> = {}) {
  const sh = new WinRmShell({ url, user: 'hnsight', password: PASSWORD, operationTimeoutSec: 1, ...extra });
  closers.push(() => sh.close());
  return sh;
}
const cmd = (id: string) => scriptFor(COLLECT_COMMANDS.find((c) => c.id === id)!);
const fixtureText = async (f: string) => decodeFixture(await fs.readFile(path.join(FIXTURES, f)));

describe('WinRM client ↔ test server', () => {
  it('authenticates with NTLMv2, seals every message, runs a collection command and gets the fixture back', async () => {
    const s = await server();
    const sh = shell(s.url);
    const r = await sh.run(cmd('network'));
    expect(r.exitCode).toBe(0);
    expect(new TextDecoder().decode(r.stdout)).toBe(await fixtureText('network.txt'));
    expect(s.stats.auths).toBe(1);
    expect(s.stats.plaintextRefused).toBe(0);
    // One shell serves several commands; Signal after each; Delete on close.
    await sh.run(cmd('ip'));
    expect(s.stats.shellsCreated).toBe(1);
    expect(s.stats.signals).toBe(2);
    await sh.close();
    expect(s.stats.shellsDeleted).toBe(1);
  });

  it('DOMAIN\\user works', async () => {
    const s = await server();
    const r = await shell(s.url, { user: 'WINNODE\\hnsight' }).run('# hnsight-test: echo hi');
    expect(new TextDecoder().decode(r.stdout)).toBe('hi\r\n');
  });

  it('retries OperationTimeout faults silently and reassembles chunked output (WS-Man chunks and HTTP chunked encoding)', async () => {
    const s = await server({ timeouts: 2, chunkSize: 777, httpChunked: true });
    const events: string[] = [];
    const streamed: number[] = [];
    const r = await shell(s.url, { onEvent: (e) => events.push(e.type) }).run(cmd('vfpOutput'), { onStdout: (b) => streamed.push(b.length) });
    const want = await fixtureText('vfpOutput.txt');
    expect(new TextDecoder().decode(r.stdout)).toBe(want);
    expect(events.filter((e) => e === 'timeout-fault')).toHaveLength(2);
    expect(streamed.length).toBeGreaterThan(5);
    expect(Math.max(...streamed)).toBeLessThanOrEqual(777);
  });

  it('waits out a slow command through repeated timeouts', async () => {
    const s = await server();
    const r = await shell(s.url).run('# hnsight-test: sleep 2500');
    expect(new TextDecoder().decode(r.stdout)).toBe('slept\r\n');
    expect(s.stats.timeoutFaults).toBeGreaterThanOrEqual(2);
  });

  it('a whole-command timeout stops the remote command and says so', async () => {
    const s = await server();
    const err = await shell(s.url).run('# hnsight-test: sleep 10000', { timeoutMs: 1500 }).catch((e) => e);
    expect(err).toBeInstanceOf(RemoteError);
    expect(err.kind).toBe('timeout');
    expect(s.stats.signals).toBeGreaterThanOrEqual(1);
  });

  it('cancel via AbortSignal', async () => {
    const s = await server();
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 300);
    const err = await shell(s.url).run('# hnsight-test: sleep 10000', { signal: ac.signal }).catch((e) => e);
    expect(err.kind).toBe('cancelled');
  });

  it('reconnects and re-authenticates when the server drops the socket (new keys, sequence from 0)', async () => {
    const s = await server({ dropEvery: 3 });
    const sh = shell(s.url);
    for (const id of ['network', 'endpoint', 'policy']) {
      const r = await sh.run(cmd(id));
      expect(r.exitCode).toBe(0);
    }
    expect(s.stats.drops).toBeGreaterThanOrEqual(2);
    expect(s.stats.auths).toBe(s.stats.drops + 1);
    expect(sh.wsman.authCount).toBe(s.stats.auths);
  });

  it('reopens the shell when the node says shell-not-found', async () => {
    const s = await server({ shellNotFound: 1 });
    const events: string[] = [];
    const r = await shell(s.url, { onEvent: (e) => events.push(e.type) }).run(cmd('routes'));
    expect(r.exitCode).toBe(0);
    expect(events).toContain('shell-reopened');
    expect(s.stats.shellsCreated).toBe(2);
  });

  it('a wrong password is an auth error that does not contain the password', async () => {
    const s = await server();
    const err = await shell(s.url, { password: 'wrong-' + PASSWORD }).run('# hnsight-test: echo x').catch((e) => e);
    expect(err).toBeInstanceOf(RemoteError);
    expect(err.kind).toBe('auth');
    expect(String(err.message)).not.toContain(PASSWORD);
    expect(String(err.stack)).not.toContain(PASSWORD);
    expect(s.stats.badPasswords).toBe(1);
  });

  it('an unknown user is refused', async () => {
    const s = await server();
    const err = await shell(s.url, { user: 'someone' }).open().catch((e) => e);
    expect(err.kind).toBe('auth');
  });

  it('the server refuses plaintext SOAP, unauthenticated or on an authenticated connection', async () => {
    const s = await server();
    const soap = new TextEncoder().encode(envelope({ to: s.url, action: ACTION.create, messageId: 'uuid:2', body: '<rsp:Shell/>' }));
    const h = { Host: `127.0.0.1:${s.port}`, 'Content-Type': 'application/soap+xml;charset=UTF-8' };
    // Never authenticated.
    const c = await HttpConnection.connect({ host: '127.0.0.1', port: s.port, tls: false });
    expect((await c.request('POST', '/wsman', h, soap, { timeoutMs: 5000 })).status).toBe(401);
    // Authenticated with NTLM, then plaintext.
    const ntlm = new NtlmClient({ user: 'hnsight', password: PASSWORD }, { random: (n) => new Uint8Array(randomBytes(n)), now: () => Date.now() });
    const r1 = await c.request('POST', '/wsman', { ...h, Authorization: `Negotiate ${toBase64(ntlm.negotiateMessage())}` }, new Uint8Array(0), { timeoutMs: 5000 });
    const t2 = fromBase64(r1.headers.get('www-authenticate')![0].split(' ')[1]);
    const r2 = await c.request('POST', '/wsman', { ...h, Authorization: `Negotiate ${toBase64(ntlm.authenticateMessage(t2))}` }, new Uint8Array(0), { timeoutMs: 5000 });
    expect(r2.status).toBe(200);
    expect((await c.request('POST', '/wsman', h, soap, { timeoutMs: 5000 })).status).toBe(401);
    c.close();
    expect(s.stats.plaintextRefused).toBe(2);
    expect(s.stats.shellsCreated).toBe(0);
  });

  it('a command the node lacks comes back with its exit code and decoded CLIXML error', async () => {
    const s = await server();
    const r = await shell(s.url).run('# hnsight-collect: nosuch\n');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/unknown script/);
    expect(r.stderr).not.toMatch(/CLIXML|<Objs/);
  });

  it('connection refused is a clear error', async () => {
    const s = await server();
    const port = s.port;
    await s.close(); closers.pop();
    const err = await shell(`http://127.0.0.1:${port}`).open().catch((e) => e);
    expect(err.kind).toBe('refused');
    expect(err.message).toMatch(/cannot connect to 127\.0\.0\.1/);
  });

  it('Basic over plain http is refused before anything is sent', () => {
    expect(() => new WinRmTransport({ url: 'http://127.0.0.1:1', user: 'u', password: 'p', auth: 'basic' })).toThrow(/clear text/);
  });
});
