// The `hnsight inspect` contract (DESIGN.md §3), driven through the real entry point.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { bin, runCli, spawnCli } from '../../helpers/cli.ts';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeZip } from '../../helpers/zip.ts';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const demo = path.join(repo, 'assets/demo/l2bridge-node');
const fixtures = path.join(repo, 'test/fixtures');

const run = runCli;

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
  it('prints the documented document and exits 1: the default demo has two faults to find', async () => {
    const r = await run('inspect', demo, '--json');
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    // DESIGN.md §3's three members, and members added (fields are only ever added).
    expect(Object.keys(doc).sort()).toEqual(['capacity', 'counts', 'files', 'findings', 'missing', 'objects', 'platform', 'services']);
    expect(doc.missing).toEqual([]);
    // The demo is a generic l2bridge node: cbr0 with its bridge endpoint cbr0_ep names Flannel host-gw.
    expect(doc.platform).toMatchObject({ plugin: 'flannel-host-gw', label: 'Flannel host-gw', confidence: 'high', podNetwork: { name: 'cbr0', type: 'l2bridge' } });
    expect(doc.platform.evidence[0]).toMatchObject({ file: 'network.txt', says: expect.stringMatching(/"cbr0" of type L2Bridge/) });
    expect(doc.objects.endpoints.length).toBe(doc.counts.endpoints);
    expect(doc.objects.loadBalancers.length).toBe(doc.counts.loadBalancers);
    expect(Object.keys(doc.counts).sort()).toEqual([...COUNT_KEYS].sort());
    for (const k of COUNT_KEYS) expect(Number.isInteger(doc.counts[k])).toBe(true);
    expect(doc.counts.endpoints).toBe(doc.counts.localEndpoints + doc.counts.remoteEndpoints);
    const vfp = doc.files.find((f: { name: string }) => f.name === 'vfpOutput.txt');
    expect(vfp).toMatchObject({ name: 'vfpOutput.txt', kind: 'vfp', encoding: 'ascii', issues: [] });
    // Added: what it was read as, how sure, why, and what it yielded.
    expect(vfp).toMatchObject({ format: 'vfpctrl rule dump per port (vfpOutput)', confidence: expect.any(Number), reason: expect.stringMatching(/Policy for port/) });
    expect(vfp.yields.rules).toBe(doc.counts.vfpRules);
    expect(doc.files.find((f: { name: string }) => f.name === 'endpoint.txt').encoding).toBe('utf-16le-bom');
    // The demo's faults (tools/gen/demo.ts): an ExceptionList typo on every pod and a pod endpoint without its vNIC.
    const errors = doc.findings.filter((f: { severity: string }) => f.severity === 'error');
    expect(errors.map((f: { id: string }) => f.id).sort()).toEqual(['endpoint-without-vnic', 'outboundnat-exception-typo']);
    expect(errors.find((f: { id: string }) => f.id === 'outboundnat-exception-typo').objects[0]).toBe('10.244.0.0/0');
  });

  it('exits 0 on the overlay demo, which stays healthy', async () => {
    const r = await run('inspect', path.join(repo, 'assets/demo/overlay-node'), '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).findings.filter((f: { severity: string }) => f.severity !== 'info')).toEqual([]);
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
    // The demo's own faults are still found in what could be read.
    expect(r.code).toBe(1);
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

describe('the real command (bin/hnsight.mjs as a process)', () => {
  it('prints the JSON document and exits 0, 1 when it found errors; exits 2 on a missing path', async () => {
    const ok = await spawnCli('inspect', path.join(repo, 'assets/demo/overlay-node'), '--json');
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).counts.networks).toBeGreaterThan(0);
    const faulty = await spawnCli('inspect', demo, '--json');
    expect(faulty.code).toBe(1);
    expect(JSON.parse(faulty.stdout).findings.some((f: { severity: string }) => f.severity === 'error')).toBe(true);
    const bad = await spawnCli('inspect', path.join(tmp, 'missing'));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/no such file or folder/);
  });
});

describe('several single outputs and standard input read as one node', () => {
  const rec = path.join(fixtures, 'recognise');
  function runWithStdin(input: Uint8Array | string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [bin, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, COLUMNS: '100000' } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
      child.stdin.end(input);
    });
  }

  it('inspect a.txt b.txt: each file recognised, objects together, what is missing said once', async () => {
    const r = await run('inspect', path.join(rec, 'hns-endpoint-json-quoted-indented.txt'), path.join(rec, 'vfp-list-rule-quoted.txt'), '--json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.files.map((f: { name: string; kind: string }) => [f.name, f.kind])).toEqual([['hns-endpoint-json-quoted-indented.txt', 'endpoint'], ['vfp-list-rule-quoted.txt', 'vfp']]);
    expect(doc.counts).toMatchObject({ endpoints: 2, localEndpoints: 1, vfpPorts: 1, vfpRules: 1, networks: null, ipv4Routes: null });
    expect(doc.missing.map((m: { what: string }) => m.what)).toEqual(['HNS networks', 'HNS load balancers', 'the IP configuration of the compartments', "the node's routing table"]);
    const text = await run('inspect', path.join(rec, 'hns-endpoint-json-quoted-indented.txt'), path.join(rec, 'vfp-list-rule-quoted.txt'));
    expect(text.stdout).toMatch(/read as HNS endpoints \(ConvertTo-Json, Windows PowerShell 5\.1 layout\) \(\d+% sure\): 2 endpoints, 1 remote endpoint/);
    expect(text.stdout.match(/not in this bundle:/g)).toHaveLength(1);
  });

  it('inspect - reads a paste from standard input (UTF-16 with BOM as PowerShell writes it)', async () => {
    const r = await runWithStdin(await readFile(path.join(rec, 'ipconfig-all-de.txt')), 'inspect', '-', '--json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.files).toEqual([expect.objectContaining({ name: 'stdin', kind: 'ip', encoding: 'utf-16le-bom', format: 'ipconfig /all' })]);
    expect(doc.counts).toMatchObject({ compartments: 1, adapters: 2, endpoints: null });
  });

  it('inspect - with files: the paste and the files together', async () => {
    const r = await runWithStdin(await readFile(path.join(rec, 'route-print-de.txt')), 'inspect', '-', path.join(rec, 'ipconfig-all-zh.txt'), '--json');
    const doc = JSON.parse(r.stdout);
    expect(doc.files.map((f: { name: string; kind: string }) => [f.name, f.kind])).toEqual([['stdin', 'routes'], ['ipconfig-all-zh.txt', 'ip']]);
    expect(doc.counts).toMatchObject({ ipv4Routes: 6, adapters: 2 });
  });

  it('a paste nothing recognises exits 0 with a warning naming it', async () => {
    const r = await runWithStdin('just some words\nand more\n', 'inspect', '-', '--json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.files[0]).toMatchObject({ name: 'stdin', kind: 'unknown' });
    expect(doc.files[0].issues).toEqual([expect.objectContaining({ severity: 'warning', line: 1, message: expect.stringMatching(/not recognised.*"just some words"/) })]);
  });

  it('text output shows a file nothing recognises, with its first line, without --verbose', async () => {
    const r = await run('inspect', path.join(rec, 'not-an-output.txt'));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/files: 0 read, 1 listed only \(1 not recognised\), 0 with errors\n {2}not-an-output\.txt +unknown/);
    expect(r.stdout).toMatch(/not-an-output\.txt:1 warning: not recognised as any output .*first line "Hi team,"/);
    const s = await runWithStdin('just some words\nand more\n', 'inspect', '-');
    expect(s.stdout).toMatch(/\n {2}stdin +unknown .*\n {6}stdin:1 warning: not recognised .*first line "just some words"/);
    // A file that was read is listed as before; nothing unrecognised is announced.
    const ok = await run('inspect', path.join(rec, 'route-print-de.txt'));
    expect(ok.stdout).toMatch(/files: 1 read, 0 listed only, 0 with errors/);
  });

  it('a folder among several files is bad usage (exit 2)', async () => {
    const r = await run('inspect', demo, path.join(rec, 'route-print-de.txt'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is a folder/);
  });
});
