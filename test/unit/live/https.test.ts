// WinRM over HTTPS (as on port 5986): certificate verification on by default, an explicit skip, a
// trusted CA, NTLM and Basic inside TLS.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startWinRmTestServer } from '../../../tools/winrm-test-server.ts';
import { WinRmShell } from '../../../services/live/winrm.ts';

const DEMO = path.resolve(__dirname, '../../../assets/demo/l2bridge-node');
const PASSWORD = 'tls-P4ss!word';
let cert = '', key = '';
const closers: (() => Promise<void>)[] = [];
afterEach(async () => { while (closers.length) await closers.pop()!(); });

beforeAll(async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hnsight-tls-'));
  const r = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
    '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`openssl is needed to make a test certificate: ${r.error?.message ?? r.stderr}`);
  cert = await fs.readFile(path.join(dir, 'cert.pem'), 'utf8');
  key = await fs.readFile(path.join(dir, 'key.pem'), 'utf8');
  await fs.rm(dir, { recursive: true, force: true });
});

async function server(allowBasic = false) {
  const s = await startWinRmTestServer({ port: 0, user: 'hnsight', password: PASSWORD, fixtures: DEMO, tls: { cert, key }, allowBasic });
  closers.push(s.close);
  return s;
}
const run = async (sh: WinRmShell) => { closers.push(() => sh.close()); return sh.run('# hnsight-collect: winver\n'); };

describe('WinRM over HTTPS', () => {
  it('refuses an untrusted certificate by default, with a message naming the skip flag', async () => {
    const s = await server();
    const err = await run(new WinRmShell({ url: s.url, user: 'hnsight', password: PASSWORD })).catch((e) => e);
    expect(err.kind).toBe('tls');
    expect(err.message).toMatch(/not trusted.*--insecure-skip-tls-verify/);
  });
  it('NTLM inside TLS with verification skipped explicitly', async () => {
    const s = await server();
    const r = await run(new WinRmShell({ url: s.url, user: 'hnsight', password: PASSWORD, insecureSkipTlsVerify: true }));
    expect(r.exitCode).toBe(0);
    expect(new TextDecoder().decode(r.stdout)).toMatch(/Microsoft Windows|\d+\.\d+/);
  });
  it('NTLM inside TLS with the certificate trusted through a CA', async () => {
    const s = await server();
    const r = await run(new WinRmShell({ url: s.url, user: 'hnsight', password: PASSWORD, ca: cert }));
    expect(r.exitCode).toBe(0);
  });
  it('Basic inside TLS; a wrong Basic password is an auth error', async () => {
    const s = await server(true);
    const r = await run(new WinRmShell({ url: s.url, user: 'hnsight', password: PASSWORD, auth: 'basic', ca: cert }));
    expect(r.exitCode).toBe(0);
    const err = await run(new WinRmShell({ url: s.url, user: 'hnsight', password: 'nope', auth: 'basic', ca: cert })).catch((e) => e);
    expect(err.kind).toBe('auth');
  });
});
