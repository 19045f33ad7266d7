// Collection end to end over WinRM: the CLI against the test server (the first run as a real process,
// the others in this process), the bundle it writes read back by
// inspect, partial results, cancel, a lost connection, a wrong password; and no secret anywhere.
import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startWinRmTestServer, decodeFixture, type InjectOptions } from '../../../tools/winrm-test-server.ts';
import { startLiveCollection } from '../../../services/live/service.ts';
import { COLLECT_COMMANDS } from '../../../services/live/collect-commands.ts';
import { MANIFEST_FILE, type CollectManifest } from '../../../services/live/collector.ts';
import type { CollectEvent } from '../../../services/live/collector.ts';
import { loadBundle } from '../../../services/bundle/load.ts';
import { runCli, type CliResult } from '../../helpers/cli.ts';
import { nodeDigest } from '../../../analysis/cluster/digest.ts';

const repo = path.resolve(__dirname, '../../..');
const DEMO = path.join(repo, 'assets/demo/l2bridge-node');
const N = COLLECT_COMMANDS.length;
const PASSWORD = 'S3cr3t-Collect!pw';
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => { while (cleanup.length) await cleanup.pop()!(); });

async function tmp(): Promise<string> {
  const d = await fs.mkdtemp(path.join(os.tmpdir(), 'hnsight-collect-'));
  cleanup.push(() => fs.rm(d, { recursive: true, force: true }));
  return d;
}
async function server(fixtures = DEMO, inject: InjectOptions = {}) {
  const s = await startWinRmTestServer({ port: 0, user: 'hnsight', password: PASSWORD, fixtures, inject });
  cleanup.push(s.close);
  return s;
}
/** `hnsight` in this process (test/helpers/cli.ts), with `env` set while it runs. */
async function cli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await runCli(...args);
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
/** The real command as a child process: the collection's exit status and output as a shell sees them. */
function cliProcess(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [path.join(repo, 'bin/hnsight.mjs'), ...args], { cwd: repo, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    p.stdout.on('data', (d) => { stdout += d; });
    p.stderr.on('data', (d) => { stderr += d; });
    p.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
async function allFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await allFiles(p))); else out.push(p);
  }
  return out;
}
/** The password in every encoding it could leak in: UTF-8, UTF-16LE, base64 of either. */
function secretForms(pw: string): Buffer[] {
  const u8 = Buffer.from(pw, 'utf8'), u16 = Buffer.from(pw, 'utf16le');
  return [u8, u16, Buffer.from(u8.toString('base64').replace(/=+$/, '')), Buffer.from(u16.toString('base64').replace(/=+$/, ''))];
}
async function expectNoSecret(dir: string, texts: string[]) {
  const forms = secretForms(PASSWORD);
  for (const f of await allFiles(dir)) {
    const b = await fs.readFile(f);
    for (const s of forms) expect(b.includes(s), `${f} contains the password`).toBe(false);
  }
  for (const t of texts) for (const s of forms) expect(Buffer.from(t).includes(s), 'output contains the password').toBe(false);
}
const readManifest = async (dir: string) => JSON.parse(await fs.readFile(path.join(dir, MANIFEST_FILE), 'utf8')) as CollectManifest;

describe('hnsight collect --winrm', () => {
  it('writes the same files as the fixture bundle, inspect reads them with the same counts, no secret anywhere', async () => {
    const s = await server(DEMO, { chunkSize: 16 * 1024, timeouts: 1 });
    const out = path.join(await tmp(), 'node1');
    const r = await cliProcess(['collect', '--winrm', `http://127.0.0.1:${s.port}`, '--user', 'hnsight', '--password-env', 'HNSIGHT_T_PW', '--out', out], { HNSIGHT_T_PW: PASSWORD });
    expect(r.stderr).toMatch(new RegExp(`\\[1/${N}\\] network\\.txt`));
    expect(r.stderr).toMatch(new RegExp(`collection complete: ${N} of ${N}`));
    expect(r.code).toBe(0);
    for (const c of COLLECT_COMMANDS.filter((x) => !x.multi)) {
      const got = await fs.readFile(path.join(out, c.file), 'utf8');
      expect(got, c.file).toBe(decodeFixture(await fs.readFile(path.join(DEMO, c.file))));
    }
    const m = await readManifest(out);
    expect(m.status).toBe('complete');
    expect(m.transport).toBe('winrm');
    expect(m.commands.every((c) => c.status === 'ok')).toBe(true);
    const a = await cli(['inspect', '--json', out]);
    const b = await cli(['inspect', '--json', DEMO]);
    expect(JSON.parse(a.stdout).counts).toEqual(JSON.parse(b.stdout).counts);
    expect(JSON.parse(a.stdout).counts.vfpRules).toBeGreaterThan(0);
    await expectNoSecret(out, [r.stdout, r.stderr, a.stdout, a.stderr]);
  });

  it('a command that fails is marked failed, the rest is kept: exit 1, partial', async () => {
    const fx = await tmp();
    for (const f of await fs.readdir(DEMO)) if (f !== 'hnsdiag.txt' && f !== 'adapters') await fs.copyFile(path.join(DEMO, f), path.join(fx, f));
    const s = await server(fx);
    const out = path.join(await tmp(), 'b');
    const r = await cli(['collect', '--winrm', s.url, '--user', 'hnsight', '--password-env', 'PW', '--out', out], { PW: PASSWORD });
    expect(r.code).toBe(1);
    const m = await readManifest(out);
    expect(m.status).toBe('partial');
    const h = m.commands.find((c) => c.id === 'hnsdiag')!;
    expect(h.status).toBe('failed');
    expect(h.stderr).toMatch(/not available on this node/);
    await expect(fs.stat(path.join(out, 'hnsdiag.txt'))).rejects.toThrow();
    expect(r.stderr).toMatch(/hnsdiag\.txt: failed/);
    await expectNoSecret(out, [r.stderr, r.stdout]);
  });

  it('a wrong password: exit 2, a clear message, only the manifest written, no secret', async () => {
    const s = await server();
    const out = path.join(await tmp(), 'c');
    const r = await cli(['collect', '--winrm', s.url, '--user', 'hnsight', '--password-env', 'PW', '--out', out], { PW: 'not-' + PASSWORD });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/refused the user name or password/);
    expect(await fs.readdir(out)).toEqual([MANIFEST_FILE]);
    expect((await readManifest(out)).status).toBe('failed');
    const forms = secretForms('not-' + PASSWORD);
    for (const f of [r.stderr, r.stdout, await fs.readFile(path.join(out, MANIFEST_FILE), 'utf8')]) for (const x of forms) expect(Buffer.from(f).includes(x)).toBe(false);
  });

  it('refuses a password on the command line and a missing environment variable, without echoing it', async () => {
    const r1 = await cli(['collect', '--winrm', 'http://127.0.0.1:1', '--user', 'u', '--password', PASSWORD, '--out', '/tmp/x']);
    expect(r1.code).toBe(2);
    expect(r1.stderr).toMatch(/never taken on the command line/);
    expect(r1.stderr).not.toContain(PASSWORD);
    const r2 = await cli(['collect', '--winrm', 'http://127.0.0.1:1', '--user', 'u', '--out', '/tmp/x', PASSWORD]);
    expect(r2.code).toBe(2);
    expect(r2.stderr).not.toContain(PASSWORD);
    const r3 = await cli(['collect', '--winrm', 'http://127.0.0.1:1', '--user', 'u', '--password-env', 'NOPE_NOT_SET', '--out', '/tmp/x']);
    expect(r3.stderr).toMatch(/NOPE_NOT_SET is not set/);
    const r4 = await cli(['collect', '--winrm', `http://u:${PASSWORD}@127.0.0.1:1`, '--user', 'u', '--password-env', 'PW', '--out', path.join(await tmp(), 'y')], { PW: 'x' });
    expect(r4.code).toBe(2);
    expect(r4.stderr).not.toContain(PASSWORD);
  });

  it('refuses a non-empty output folder', async () => {
    const s = await server();
    const out = await tmp();
    await fs.writeFile(path.join(out, 'keep.txt'), 'evidence');
    const r = await cli(['collect', '--winrm', s.url, '--user', 'hnsight', '--password-env', 'PW', '--out', out], { PW: PASSWORD });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not empty/);
  });
});

describe('multi-file commands: node logs and CNI config', () => {
  it('each file lands under the command\'s folder by its own name, byte for byte, and the loader reads them as logs and CNI configs', async () => {
    const fx = await tmp();
    await fs.cp(DEMO, fx, { recursive: true });
    const kubeproxy = 'I0101 10:00:00.000000    1234 flags.go:64] FLAG: --proxy-mode="kernelspace"\r\nI0101 10:00:01.000000    1234 server.go:500] "Version info" version="v1.29.0"\r\n';
    const kubeletU16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('I0101 10:00:00.000000    4321 kubelet.go:400] "Kubelet version" kubeletVersion="v1.29.0"\r\n', 'utf16le')]);
    const conflist = JSON.stringify({ cniVersion: '0.3.0', name: 'cbr0', plugins: [{ type: 'flannel', delegate: { type: 'win-bridge' } }] }, null, 2);
    await fs.mkdir(path.join(fx, 'logs/k'), { recursive: true });
    await fs.writeFile(path.join(fx, 'logs/k/kubeproxy.log'), kubeproxy);
    await fs.writeFile(path.join(fx, 'logs/k/kubelet.log'), kubeletU16);
    await fs.mkdir(path.join(fx, 'cni/etc/cni/net.d'), { recursive: true });
    await fs.writeFile(path.join(fx, 'cni/etc/cni/net.d/10-flannel.conflist'), conflist);
    await fs.copyFile(path.join(repo, 'test/fixtures/foreign/aks-win-zip-2025/azure-vnet.log'), path.join(fx, 'logs/k/azure-vnet.log'));
    await fs.copyFile(path.join(repo, 'test/fixtures/logs/containerd.log'), path.join(fx, 'logs/k/containerd.log'));
    const s = await server(fx);
    const out = path.join(await tmp(), 'm');
    const m = await startLiveCollection({ target: { transport: 'winrm', url: s.url, user: 'hnsight', operationTimeoutSec: 1 }, credentials: { password: PASSWORD }, outDir: out }).done;
    expect(m.status).toBe('complete');
    expect(await fs.readFile(path.join(out, 'logs/k/kubeproxy.log'), 'utf8')).toBe(kubeproxy);
    expect(Buffer.compare(await fs.readFile(path.join(out, 'logs/k/kubelet.log')), kubeletU16)).toBe(0);
    expect(await fs.readFile(path.join(out, 'cni/etc/cni/net.d/10-flannel.conflist'), 'utf8')).toBe(conflist);
    const logs = m.commands.find((c) => c.id === 'logs')!;
    expect(logs.files!.map((f) => f.name)).toEqual(['k/azure-vnet.log', 'k/containerd.log', 'k/kubelet.log', 'k/kubeproxy.log']);
    expect(logs.files!.find((f) => f.name === 'k/kubelet.log')!.bytes).toBe(kubeletU16.length);
    expect(logs.bytes).toBe(logs.files!.reduce((n, f) => n + f.bytes, 0));
    expect(m.commands.find((c) => c.id === 'cni')!.files).toEqual([{ name: 'etc/cni/net.d/10-flannel.conflist', bytes: conflist.length }]);
    const model = await loadBundle(out);
    expect(model.logs?.map((l) => [l.file, l.component]).sort()).toEqual([['logs/k/azure-vnet.log', 'azure-cni'], ['logs/k/containerd.log', 'containerd'], ['logs/k/kubelet.log', 'kubelet'], ['logs/k/kubeproxy.log', 'kube-proxy']]);
    expect(model.cni?.configs.map((c) => c.file)).toEqual(['cni/etc/cni/net.d/10-flannel.conflist']);
    // What the fleet summary needed and in-cluster bundles lacked: CNI ADD times, the CNI config, kube-proxy's flags.
    const d = nodeDigest(model, { id: 'n', bundle: out });
    expect(d.cniAdds).toBeGreaterThan(0);
    expect(d.cniAddP99Ms).not.toBeNull();
    expect(d.cni?.file).toBe('cni/etc/cni/net.d/10-flannel.conflist');
    expect(d.kubeProxyFlags).toEqual({ file: 'logs/k/kubeproxy.log', flags: { 'proxy-mode': 'kernelspace' } });
  });

  it('a node without those files: the commands are ok with no file and no folder', async () => {
    const s = await server(DEMO);
    const out = path.join(await tmp(), 'n');
    const m = await startLiveCollection({ target: { transport: 'winrm', url: s.url, user: 'hnsight', operationTimeoutSec: 1 }, credentials: { password: PASSWORD }, outDir: out }).done;
    expect(m.status).toBe('complete');
    for (const id of ['logs', 'cni']) expect(m.commands.find((c) => c.id === id)).toMatchObject({ status: 'ok', bytes: 0, files: [] });
    await expect(fs.stat(path.join(out, 'logs'))).rejects.toThrow();
    await expect(fs.stat(path.join(out, 'cni'))).rejects.toThrow();
  });
});

describe('the live collection service (the API the app uses)', () => {
  const target = (url: string) => ({ transport: 'winrm' as const, url, user: 'hnsight', operationTimeoutSec: 1 });

  it('reports progress per command and survives dropped sockets (re-authenticating)', async () => {
    const s = await server(DEMO, { dropEvery: 7 });
    const out = path.join(await tmp(), 'd');
    const events: CollectEvent[] = [];
    const job = startLiveCollection({ target: target(s.url), credentials: { password: PASSWORD }, outDir: out, onEvent: (e) => events.push(e) });
    const m = await job.done;
    expect(m.status).toBe('complete');
    expect(s.stats.drops).toBeGreaterThan(3);
    expect(s.stats.auths).toBe(s.stats.drops + 1);
    expect(events[0].type).toBe('connecting');
    expect(events.filter((e) => e.type === 'command-start')).toHaveLength(N);
    expect(events.filter((e) => e.type === 'command-end')).toHaveLength(N);
    expect(events.at(-1)!.type).toBe('done');
    await expectNoSecret(out, [JSON.stringify(events)]);
  });

  it('cancel stops the run, keeps what was written and marks the rest', async () => {
    const s = await server(DEMO, { timeouts: 1_000_000 });
    const out = path.join(await tmp(), 'e');
    let job: ReturnType<typeof startLiveCollection> | null = null;
    job = startLiveCollection({
      target: target(s.url), credentials: { password: PASSWORD }, outDir: out,
      onEvent: (e) => { if (e.type === 'command-start' && e.index === 0) setTimeout(() => job!.cancel(), 200); },
    });
    const m = await job.done;
    expect(m.status).toBe('cancelled');
    expect(m.commands[0].status).toBe('cancelled');
    expect(m.commands.slice(1).every((c) => c.status === 'cancelled')).toBe(true);
    expect(s.stats.signals).toBeGreaterThanOrEqual(1);
    expect(await fs.readdir(out)).toEqual([MANIFEST_FILE]);
  });

  it('a lost node mid-run keeps the files collected so far (partial)', async () => {
    const s = await server(DEMO, { chunkSize: 4096 });
    const out = path.join(await tmp(), 'f');
    const job = startLiveCollection({
      target: target(s.url), credentials: { password: PASSWORD }, outDir: out,
      onEvent: (e) => { if (e.type === 'command-start' && e.id === 'ip') void s.close(); },
    });
    const m = await job.done;
    expect(m.status).toBe('partial');
    const byId = Object.fromEntries(m.commands.map((c) => [c.id, c]));
    expect(byId.network.status).toBe('ok');
    expect(['failed', 'partial']).toContain(byId.ip.status);
    expect(byId.routes.status).toBe('skipped');
    expect(m.error).toMatch(/cannot connect|closed the connection|connection lost/);
    await fs.stat(path.join(out, 'network.txt'));
  });
});
