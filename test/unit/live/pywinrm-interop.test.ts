// Interop: Debian's pywinrm (python3-winrm 0.3.0, Protocol API) against tools/winrm-test-server.ts,
// started as its CLI on loopback. Proves the server (and so the shared NTLM/sealing/WS-Man code) against
// an independent client. Needs `apt-get install python3-winrm`; fails with that message when missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { promises as fs } from 'node:fs';
import { decodeFixture } from '../../../tools/winrm-test-server.ts';

const repo = path.resolve(__dirname, '../../..');
const FIXTURES = path.join(repo, 'assets/demo/l2bridge-node');
const PASSWORD = 'py-Interop&Secret9';
// Debian's interpreter, where apt installs python3-winrm (a pyenv/venv python3 on PATH would not see it).
const PYTHON = process.env.HNSIGHT_PYTHON ?? '/usr/bin/python3';
let proc: ChildProcess | null = null;
let url = '';
let stderr = '';

beforeAll(async () => {
  const probe = spawnSync(PYTHON, ['-c', 'import winrm, ntlm_auth, requests_ntlm'], { encoding: 'utf8' });
  if (probe.status !== 0) {
    throw new Error(`python3-winrm is required for this test (apt-get install -y python3-winrm): ${probe.error?.message ?? probe.stderr.trim()}`);
  }
  proc = spawn(process.execPath, ['--import', 'tsx', 'tools/winrm-test-server.ts', '--port', '0', '--user', 'hnsight', '--password-env', 'HNSIGHT_TEST_PASSWORD', '--fixtures', FIXTURES, '--timeouts', '1', '--chunk-size', '4096'], {
    cwd: repo, env: { ...process.env, HNSIGHT_TEST_PASSWORD: PASSWORD }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stderr!.on('data', (d) => { stderr += d; });
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const t = setTimeout(() => reject(new Error(`winrm-test-server did not start: ${stderr}`)), 20000);
    proc!.stdout!.on('data', (d) => { out += d; const m = /listening on (\S+)/.exec(out); if (m) { clearTimeout(t); resolve(m[1]); } });
    proc!.once('exit', (c) => { clearTimeout(t); reject(new Error(`winrm-test-server exited ${c}: ${stderr}`)); });
  });
});
afterAll(() => { proc?.kill('SIGTERM'); });

describe('pywinrm (Debian python3-winrm) against winrm-test-server', () => {
  it('NTLMv2 + encryption, shell, commands, timeouts, chunks; bad password and plaintext refused', async () => {
    const r = spawnSync(PYTHON, [path.join(repo, 'test/fixtures/live/pywinrm_interop.py'), url, 'hnsight'], {
      encoding: 'utf8', timeout: 60000,
      env: { ...process.env, HNSIGHT_TEST_PASSWORD: PASSWORD, OPENSSL_CONF: path.join(repo, 'test/fixtures/live/openssl-legacy.cnf') },
    });
    if (r.status !== 0) throw new Error(`pywinrm run failed (${r.status ?? r.signal}):\n${r.stderr}\nserver: ${stderr}`);
    const out = JSON.parse(r.stdout);
    expect(out.winrm_module).toMatch(/^\/usr\/lib\/python3\/dist-packages\/winrm\//);
    const text = async (f: string) => decodeFixture(await fs.readFile(path.join(FIXTURES, f)));
    expect(out.ipconfig.rc).toBe(0);
    expect(out.ipconfig.stdout).toBe(await text('ip.txt'));
    expect(out.ps_endpoint.rc).toBe(0);
    expect(out.ps_endpoint.stdout).toBe(await text('endpoint.txt'));
    expect(out.ps_slow).toEqual({ rc: 0, stdout: 'slept\r\n', stderr: '' });
    expect(out.unknown.rc).toBe(1);
    expect(out.unknown.stderr).toMatch(/not recognized/);
    expect(out.closed).toBe(true);
    expect(out.bad_password).toBe('InvalidCredentialsError');
    expect(out.plaintext).toMatch(/^refused:/);
    expect(r.stdout + r.stderr + stderr).not.toContain(PASSWORD);
  });
});

describe("hnsight's client session security against python ntlm_auth (server side)", () => {
  it('ntlm_auth unwraps what the TS client sealed, and the TS client unwraps what ntlm_auth sealed, in sequence', async () => {
    const { NtlmClient, NtlmServer } = await import('../../../services/live/ntlm.ts');
    const { hex, fromHex } = await import('../../../services/live/bytes.ts');
    const { randomBytes } = await import('node:crypto');
    // Capture the exported session key the client picks by wrapping its randomness.
    const keys: Uint8Array[] = [];
    const env = { random: (n: number) => { const b = new Uint8Array(randomBytes(n)); if (n === 16) keys.push(b); return b; }, now: () => Date.now() };
    const client = new NtlmClient({ user: 'u', password: 'p' }, env);
    const server = new NtlmServer({ user: 'u', password: 'p' }, env);
    client.authenticateMessage(server.challengeMessage(client.negotiateMessage()));
    const texts = ['<s:Envelope>one</s:Envelope>', 'zwei ü', 'three €'];
    const fromClient = texts.map((t) => { const w = client.session!.wrap(new TextEncoder().encode(t)); return { sealed: hex(w.sealed), signature: hex(w.signature) }; });
    const r = spawnSync(PYTHON, [path.join(repo, 'test/fixtures/live/ntlm_auth_session.py')], {
      input: JSON.stringify({ flags: client.flags, key: hex(keys.at(-1)!), from_client: fromClient, to_client: ['back one', 'back two'] }), encoding: 'utf8', timeout: 30000,
    });
    if (r.status !== 0) throw new Error(`ntlm_auth cross-check failed: ${r.stderr}`);
    const out = JSON.parse(r.stdout);
    expect(out.received).toEqual(texts);
    expect(out.sent.map((m: { sealed: string; signature: string }) => new TextDecoder().decode(client.session!.unwrap(fromHex(m.sealed), fromHex(m.signature))))).toEqual(['back one', 'back two']);
  });
});
