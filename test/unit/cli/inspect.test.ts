// The `hnsight inspect` contract (DESIGN.md §3), driven through the real entry point.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeZip } from '../../helpers/zip.ts';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = path.join(repo, 'bin/hnsight.mjs');
const demo = path.join(repo, 'assets/demo/l2bridge-node');
const fixtures = path.join(repo, 'test/fixtures');

function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const COUNT_KEYS = ['networks', 'endpoints', 'localEndpoints', 'remoteEndpoints', 'loadBalancers', 'compartments', 'adapters', 'vfpPorts', 'vfpLayers', 'vfpRules', 'ipv4Routes'];

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'hnsight-cli-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('usage and unreadable input exit 2 with a message', () => {
  it('a missing path', async () => {
    const r = await run('inspect', path.join(tmp, 'no-such-bundle'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no such file or folder: .*no-such-bundle/);
    expect(r.stdout).toBe('');
  });
  it('no bundle given', async () => {
    const r = await run('inspect');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/inspect needs a bundle/);
  });
  it('an unknown command or option', async () => {
    expect((await run('frobnicate')).code).toBe(2);
    const r = await run('inspect', demo, '--jsn');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--jsn/);
  });
  it('a corrupt zip', async () => {
    const z = path.join(tmp, 'corrupt.zip');
    await writeFile(z, Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(100, 7)]));
    const r = await run('inspect', z);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not a readable zip/);
  });
});

describe('inspect --json on the demo bundle', () => {
  it('prints the documented document and exits 0', async () => {
    const r = await run('inspect', demo, '--json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc).sort()).toEqual(['counts', 'files', 'findings', 'objects', 'platform']);
    // The demo is a generic l2bridge node: cbr0 with its bridge endpoint cbr0_ep names Flannel host-gw.
    expect(doc.platform).toMatchObject({ plugin: 'flannel-host-gw', label: 'Flannel host-gw', confidence: 'high', podNetwork: { name: 'cbr0', type: 'l2bridge' } });
    expect(doc.platform.evidence[0]).toMatchObject({ file: 'network.txt', says: expect.stringMatching(/"cbr0" of type L2Bridge/) });
    expect(doc.objects.endpoints.length).toBe(doc.counts.endpoints);
    expect(doc.objects.loadBalancers.length).toBe(doc.counts.loadBalancers);
    expect(Object.keys(doc.counts).sort()).toEqual([...COUNT_KEYS].sort());
    for (const k of COUNT_KEYS) expect(Number.isInteger(doc.counts[k])).toBe(true);
    expect(doc.counts.endpoints).toBe(doc.counts.localEndpoints + doc.counts.remoteEndpoints);
    const vfp = doc.files.find((f: { name: string }) => f.name === 'vfpOutput.txt');
    expect(vfp).toEqual({ name: 'vfpOutput.txt', kind: 'vfp', encoding: 'ascii', issues: [] });
    expect(doc.files.find((f: { name: string }) => f.name === 'endpoint.txt').encoding).toBe('utf-16le-bom');
    expect(Array.isArray(doc.findings)).toBe(true);
  });

  it('gives the same counts for the folder and its zip', async () => {
    const names = ['network.txt', 'endpoint.txt', 'policy.txt', 'ip.txt', 'routes.txt', 'ports.txt', 'vfpOutput.txt', 'namespaces.txt'];
    const files: Record<string, Uint8Array> = {};
    for (const n of names) files[`collect/${n}`] = await readFile(path.join(demo, n));
    const z = path.join(tmp, 'demo.zip');
    await writeFile(z, await makeZip(files));
    const [a, b] = await Promise.all([run('inspect', demo, '--json'), run('inspect', z, '--json')]);
    expect(JSON.parse(b.stdout).counts).toEqual(JSON.parse(a.stdout).counts);
  });
});

describe('null counts for missing sources', () => {
  it('a bundle with only ip.txt counts compartments and nothing else', async () => {
    const dir = path.join(tmp, 'only-ip');
    await cp(path.join(demo, 'ip.txt'), path.join(dir, 'ip.txt'), { recursive: true });
    const doc = JSON.parse((await run('inspect', dir, '--json')).stdout);
    expect(doc.counts.compartments).toBeGreaterThan(0);
    for (const k of COUNT_KEYS.filter((k) => k !== 'compartments' && k !== 'adapters')) expect(doc.counts[k], k).toBeNull();
  });
});

describe('a broken bundle still loads and names what is broken', () => {
  it('truncated endpoint JSON, junk policy, empty routes', async () => {
    const dir = path.join(tmp, 'broken');
    await cp(demo, dir, { recursive: true });
    const ep = await readFile(path.join(dir, 'endpoint.txt'));
    await writeFile(path.join(dir, 'endpoint.txt'), ep.subarray(0, Math.floor(ep.length * 0.6) & ~1));
    await writeFile(path.join(dir, 'policy.txt'), Buffer.from([0xff, 0xfe, 0x00, 0xd8, 0x41, 0x00, 0x7b, 0x00, 0x0d, 0x00]));
    await writeFile(path.join(dir, 'routes.txt'), '');
    const r = await run('inspect', dir, '--json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    const epFile = doc.files.find((f: { name: string }) => f.name === 'endpoint.txt');
    const err = epFile.issues.find((i: { severity: string }) => i.severity === 'error');
    expect(err).toBeDefined();
    expect(err.line).toBeGreaterThan(1);
    const demoDoc = JSON.parse((await run('inspect', demo, '--json')).stdout);
    expect(doc.counts.endpoints).toBeGreaterThan(0);
    expect(doc.counts.endpoints).toBeLessThanOrEqual(demoDoc.counts.endpoints);
    expect(doc.counts.vfpRules).toBe(demoDoc.counts.vfpRules);
    expect(doc.counts.compartments).toBe(demoDoc.counts.compartments);
    const text = await run('inspect', dir);
    expect(text.stdout).toMatch(/endpoint\.txt:\d+ error:/);
  });
});

describe('a single saved output is read by its content, whatever its name', () => {
  it.each([
    ['vfp/seed-slb-nat-layer-list-rule.txt', 'rules-from-ticket.txt', { vfpPorts: 1, vfpRules: 2, networks: null }],
    ['vfp/seed-lbnat.txt', 'lb.log', { vfpPorts: 1, vfpRules: 2 }],
    ['hnsdiag/seed-list-all.txt', 'paste.txt', { networks: 3, loadBalancers: 4, vfpRules: null }],
    ['hns/endpoint-v1.txt', 'eps.json', { endpoints: 2, localEndpoints: 1, remoteEndpoints: 1, networks: null }],
    ['ipconfig/ipconfig-plain.txt', 'node-ipconfig.txt', { compartments: 1 }],
  ])('%s saved as %s', async (fixture, name, expected) => {
    const f = path.join(tmp, name);
    await cp(path.join(fixtures, fixture), f);
    const r = await run('inspect', f, '--json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.files).toHaveLength(1);
    expect(doc.files[0].kind).not.toBe('unknown');
    for (const [k, v] of Object.entries(expected)) expect(doc.counts[k], k).toBe(v);
  });
});
