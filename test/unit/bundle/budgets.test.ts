// Loading within budgets (issue 15): the audit's zip bomb and its variants give a named answer in
// bounded memory — measured as a hard cap on the peak RSS of a process of their own — and everything
// else in the bundle loads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBundle } from '../../../services/bundle/load.ts';
import { DEFAULT_LIMITS, MAX_FILE_BYTES, limitsFromEnv, parseByteSize } from '../../../services/bundle/limits.ts';
import { makeZip, zeroZip } from '../../helpers/zip.ts';
import { ReadBudget } from '../../../services/bundle/read-budget.ts';
import { defaultMemoryBudget, heldByNode, holdForNode, memoryBudgetFromEnv, processMemory, releaseNode } from '../../../services/bundle/memory-budget.ts';
import { Budget } from '../../../services/bundle/budget.ts';
import { diskBudgetFromEnv, processDisk } from '../../../services/bundle/disk-budget.ts';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const DEMO = path.join(repo, 'assets/demo/l2bridge-node');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hnsight-budget-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface ChildResult {
  files: { name: string; kind: string; encoding: string; issues: string[] }[];
  rules: number | null;
  findings: { id: string; title: string }[];
  peakRssBytes: number;
}

/** Loads in a process of its own, with a small V8 heap; the peak RSS covers array buffers too. */
function loadInChild(target: string, env: Record<string, string> = {}): ChildResult {
  // load-child.mjs: its bundle when current (the global setup builds it), else the same main through tsx.
  const out = execFileSync(process.execPath, ['--max-old-space-size=256', path.join(repo, 'test/helpers/load-child.mjs'), target, '--checks'], {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    maxBuffer: 16 * MiB,
  });
  return JSON.parse(out.trim().split('\n').pop()!) as ChildResult;
}

const issuesOf = (files: { name: string; issues: { message: string }[] }[], name: string) => files.find((f) => f.name === name)?.issues.map((i) => i.message) ?? [];

describe('the audit zip bomb: 11 MB holding three 3.5 GiB entries of zeros', () => {
  it('names the two as decompression bombs, lists the binary one unread, and stays far below one entry in memory', async () => {
    const z = path.join(dir, 'bomb.zip');
    await writeFile(z, zeroZip({ 'vfpOutput.txt': 3.5 * GiB, 'endpoint.txt': 3.5 * GiB, 'trace.etl': 3.5 * GiB }));
    const r = loadInChild(z);
    const byName = new Map(r.files.map((f) => [f.name, f]));
    for (const name of ['vfpOutput.txt', 'endpoint.txt']) {
      expect(byName.get(name)!.encoding).toBe('not-read');
      // Zeros inflate about 1,000 times; the text of real bundles 9–35 times.
      expect(byName.get(name)!.issues).toEqual([expect.stringMatching(/^error: not read: it inflates 10\d\d times \([\d.]+ MiB in the zip, 3\.5 GiB inflated\), far more than text does .* most likely a decompression bomb/)]);
    }
    // A trace is never parsed: at most its head is inflated to see that, and nothing is said against it.
    expect(byName.get('trace.etl')).toMatchObject({ kind: 'known', encoding: 'not-read', issues: [] });
    expect(r.rules).toBeNull();
    // One entry alone is 3.5 GiB; the load holds a few hundred MB at most (the runtime included).
    expect(r.peakRssBytes).toBeLessThan(512 * MiB);
  });

  it('with the per-file budget raised, counts the bytes as they inflate against the bundle budget', async () => {
    // 3 × 12 MiB of zeros named as core files; per file 16 MiB, per bundle 20 MiB: one is read, the others are named.
    // (Not the VFP dump: a big one is read on demand from a temporary file, not held — vfp-on-demand.test.ts.)
    const z = path.join(dir, 'bomb-small.zip');
    await writeFile(z, zeroZip({ 'network.txt': 12 * MiB, 'endpoint.txt': 12 * MiB, 'policy.txt': 12 * MiB }));
    const r = loadInChild(z, { HNSIGHT_MAX_FILE_BYTES: '16M', HNSIGHT_MAX_BUNDLE_BYTES: '20M' });
    const notRead = r.files.filter((f) => f.encoding === 'not-read');
    expect(notRead).toHaveLength(2);
    for (const f of notRead) expect(f.issues).toEqual(['error: not read: the other files of the bundle used its budget (12 MiB more would pass the 20 MiB hnsight reads from one bundle; HNSIGHT_MAX_BUNDLE_BYTES raises it)']);
    expect(r.peakRssBytes).toBeLessThan(512 * MiB);
  });
});

describe('decompression bombs, bounded by how much an entry inflates and by one budget for everything open', () => {
  it('opens four zips of three 1 GiB zero files as a cluster within bounded memory, naming every entry', async () => {
    // The audit's cluster: four 3.1 MB zips, each three 1 GiB entries of zeros (RSS passed 2 GB and kept growing).
    const c = path.join(dir, 'bomb-cluster');
    await mkdir(c, { recursive: true });
    for (const n of ['win-1', 'win-2', 'win-3', 'win-4']) {
      await writeFile(path.join(c, `${n}.zip`), zeroZip({ 'vfpOutput.txt': 1 * GiB, 'endpoint.txt': 1 * GiB, 'network.txt': 1 * GiB }));
    }
    const out = execFileSync(process.execPath, ['--max-old-space-size=256', path.join(repo, 'test/helpers/cluster-child.mjs'), c], { cwd: repo, encoding: 'utf8', maxBuffer: 16 * MiB });
    const r = JSON.parse(out.trim().split('\n').pop()!) as { nodes: { bundle: string; files: { name: string; encoding: string; issues: string[] }[] }[]; failed: unknown[]; peakRssBytes: number };
    expect(r.failed).toEqual([]);
    const named = r.nodes.flatMap((n) => n.files.filter((f) => f.encoding === 'not-read' && f.issues.some((i) => i.includes('decompression bomb'))).map((f) => `${path.basename(n.bundle)}/${f.name}`));
    expect(named.sort()).toEqual(['win-1', 'win-2', 'win-3', 'win-4'].flatMap((n) => ['endpoint.txt', 'network.txt', 'vfpOutput.txt'].map((f) => `${n}.zip/${f}`)).sort());
    // Twelve entries of 1 GiB each; the process holds the runtime and little else.
    expect(r.peakRssBytes).toBeLessThan(512 * MiB);
  });

  it('reads real text however big it is, and names a big entry of zeros beside it', async () => {
    const files: Record<string, string | Uint8Array> = {};
    for (const f of ['vfpOutput.txt', 'endpoint.txt', 'network.txt', 'ip.txt', 'routes.txt', 'policy.txt']) files[f] = await readFile(path.join(DEMO, f));
    files['hnsdiag.txt'] = new Uint8Array(2 * MiB);
    const z = path.join(dir, 'real-and-zeros.zip');
    await writeFile(z, await makeZip(files));
    // The floor lowered to 1 MiB so small files meet the ratio: the demo's text inflates 9–35 times.
    const m = await loadBundle(z, { limits: { ...DEFAULT_LIMITS, inflation: { ratio: 200, minBytes: 1 * MiB } } });
    const unread = m.files.filter((f) => f.encoding === 'not-read').map((f) => f.name);
    expect(unread).toEqual(['hnsdiag.txt']);
    expect(issuesOf(m.files, 'hnsdiag.txt')).toEqual([expect.stringMatching(/inflates \d+ times .*decompression bomb/)]);
    expect(m.vfp?.totals.rules).toBeGreaterThan(100);
  });

  it('holds what the open nodes read to one budget: a load past it names the bundle\'s file, and a closed node frees its share', async () => {
    const memory = new Budget(600 * 1024);
    const charge = (b: ReadBudget, name: string, bytes: number) => {
      try {
        b.charge(name, bytes);
        return 'read';
      } catch (e) {
        return (e as Error).message;
      }
    };
    const a = new ReadBudget(DEFAULT_LIMITS, memory);
    expect(charge(a, 'vfpOutput.txt', 500 * 1024)).toBe('read');
    const node = {};
    holdForNode(node, a.bytesUsed, memory);
    const b = new ReadBudget(DEFAULT_LIMITS, memory);
    expect(charge(b, 'endpoint.txt', 200 * 1024)).toBe('not read: the nodes open in hnsight hold 500 KiB already, and 200 KiB more would pass the 600 KiB it holds in all (close a node, or raise HNSIGHT_MAX_MEMORY_BYTES)');
    expect(charge(b, 'ip.txt', 50 * 1024)).toBe('read');
    releaseNode(node);
    releaseNode(node);
    expect(memory.held).toBe(50 * 1024);
    expect(charge(b, 'endpoint.txt', 200 * 1024)).toBe('read');
  });

  it('gives back what a load read when the node is closed, and what a failed load read at once', async () => {
    // Nodes of earlier tests are given back when they are collected, which may happen during any await:
    // the figures are compared across synchronous steps only (a finalizer never runs between them), and
    // across an await the account may only go down.
    const m = await loadBundle(DEMO);
    const held = heldByNode(m);
    expect(held).toBeGreaterThan(100 * 1024);
    const open = processMemory().held;
    expect(open).toBeGreaterThanOrEqual(held);
    releaseNode(m);
    expect(open - processMemory().held).toBe(held);
    expect(heldByNode(m)).toBe(0);
    const before = processMemory().held;
    const ctl = new AbortController();
    ctl.abort();
    await expect(loadBundle(DEMO, { signal: ctl.signal })).rejects.toThrow(/cancelled/);
    expect(processMemory().held).toBeLessThanOrEqual(before);
  });

  it('reads the process budget and the inflation limit from the environment, and refuses values it cannot read', () => {
    expect(memoryBudgetFromEnv({ HNSIGHT_MAX_MEMORY_BYTES: '6G' })).toBe(6 * GiB);
    expect(memoryBudgetFromEnv({})).toBe(defaultMemoryBudget());
    expect(defaultMemoryBudget(24 * GiB)).toBe(12 * GiB);
    expect(defaultMemoryBudget(1 * GiB)).toBe(2 * GiB);
    expect(() => memoryBudgetFromEnv({ HNSIGHT_MAX_MEMORY_BYTES: 'lots' })).toThrow(/HNSIGHT_MAX_MEMORY_BYTES must be a size/);
    expect(limitsFromEnv({ HNSIGHT_MAX_INFLATE_RATIO: '500' }).inflation).toEqual({ ratio: 500, minBytes: 64 * MiB });
    for (const bad of ['0', '-3', '1e9', 'x']) expect(() => limitsFromEnv({ HNSIGHT_MAX_INFLATE_RATIO: bad })).toThrow(/HNSIGHT_MAX_INFLATE_RATIO must be a number of times/);
  });

  it('keeps memory and disk in two accounts of one kind, each read from its own variable', () => {
    expect(processMemory()).toBeInstanceOf(Budget);
    expect(processDisk()).toBeInstanceOf(Budget);
    expect(processDisk()).not.toBe(processMemory());
    expect(diskBudgetFromEnv({ HNSIGHT_MAX_DISK_BYTES: '8GiB' })).toBe(8 * GiB);
    expect(diskBudgetFromEnv({})).toBeGreaterThanOrEqual(GiB);
    expect(() => diskBudgetFromEnv({ HNSIGHT_MAX_DISK_BYTES: 'plenty' })).toThrow('HNSIGHT_MAX_DISK_BYTES must be a size in bytes (e.g. 8000000000, 8G or 8GiB), not "plenty"');
    // What one takes the other does not hold, and neither gives back more than it holds.
    const mem = new Budget(10);
    const disk = new Budget(10);
    expect(mem.take(8)).toBe(true);
    expect(mem.take(3)).toBe(false);
    expect(disk.held).toBe(0);
    mem.give(100);
    expect(mem.held).toBe(0);
  });
});

describe('text files past what one string holds (the audit: three 1000 MiB entries in a 7.6 MB zip)', () => {
  it('names each over the text limit, reads none of them, and stays far below one entry in memory', async () => {
    const z = path.join(dir, 'three-big.zip');
    await writeFile(z, zeroZip({ 'endpoint.txt': 1000 * MiB, 'policy.txt': 1000 * MiB, 'network.txt': 1000 * MiB }));
    // Each is under the 1 GiB per-file budget; two would fit the 2 GiB bundle budget. Zeros are a
    // decompression bomb too: the inflation limit is lifted so the text limit is what answers here.
    const r = loadInChild(z, { HNSIGHT_MAX_INFLATE_RATIO: '2000' });
    for (const name of ['endpoint.txt', 'policy.txt', 'network.txt']) {
      const f = r.files.find((x) => x.name === name)!;
      expect(f.encoding).toBe('not-read');
      expect(f.issues).toEqual(['error: not read: it is 1000 MiB of text, more than the 512 MiB hnsight can read as text from one file (only the VFP dump is read past it)']);
    }
    expect(r.peakRssBytes).toBeLessThan(512 * MiB);
  });

  it('applies to a text file whatever it is named once its head says it is text; not to the VFP dump', async () => {
    const b = path.join(dir, 'text-limit');
    await mkdir(b, { recursive: true });
    const rules = Buffer.from(('RULE : r1\n    Priority : 1\n    Type : allow\n').repeat(2000));
    await writeFile(path.join(b, 'vfpOutput.txt'), rules);
    await writeFile(path.join(b, 'ip.txt'), await readFile(path.join(DEMO, 'ip.txt')));
    const limits = { ...DEFAULT_LIMITS, maxTextBytes: 1024 };
    const m = await loadBundle(b, { limits });
    expect(m.vfp?.totals.rules).toBe(2000);
    expect(issuesOf(m.files, 'ip.txt')).toEqual([expect.stringMatching(/^not read: it is [\d.]+ KiB of text, more than the 1 KiB hnsight can read as text from one file/)]);
    expect(m.files.find((f) => f.name === 'ip.txt')?.issues[0].severity).toBe('error');
  });
});

describe('budgets in a load', () => {
  it('reads the node files first, so a budget used up by other files still leaves the node', async () => {
    const b = path.join(dir, 'order');
    await mkdir(b, { recursive: true });
    // Sorted by name the logs come first; they are side inputs and wait for the node's files.
    await writeFile(path.join(b, 'a-kubelet.log'), 'I0101 00:00:00.000000 1 x.go:1] hello\n'.repeat(3000));
    const ip = await readFile(path.join(DEMO, 'ip.txt'));
    await writeFile(path.join(b, 'ip.txt'), ip);
    const ipSize = ip.length;
    const m = await loadBundle(b, { limits: { ...DEFAULT_LIMITS, maxEntryBytes: 1 * MiB, maxTotalBytes: ipSize + 1000 } });
    expect(issuesOf(m.files, 'ip.txt')).toEqual([]);
    expect(m.ip?.compartments.length).toBeGreaterThan(0);
    expect(issuesOf(m.files, 'a-kubelet.log')[0]).toMatch(/^not read: the other files of the bundle used its budget/);
  });

  it('classifies a big file with a name it does not know from its head alone, and reads a dump saved under any name', async () => {
    const z = path.join(dir, 'heads.zip');
    const rules = Buffer.from(('RULE : r1\n    Priority : 1\n    Type : allow\n').repeat(8000));
    const zeros = zeroZip({ 'capture.dat': 40 * MiB });
    await writeFile(path.join(dir, 'zeros.zip'), zeros);
    await writeFile(z, await makeZip({ 'saved-rules.txt': rules, 'ip.txt': 'Windows IP Configuration\n' }));
    // 40 MiB of zeros under an unknown name: only its head is read (64 KiB of a 1 MiB bundle budget).
    const m1 = await loadBundle(path.join(dir, 'zeros.zip'), { limits: { ...DEFAULT_LIMITS, maxEntryBytes: 1 * MiB, maxTotalBytes: 1 * MiB } });
    const cap = m1.files.find((f) => f.name === 'capture.dat');
    expect(cap?.kind).toBe('unknown');
    expect(cap?.issues.map((x) => x.message)).toEqual(['capture.dat: its first 64 KiB hold no text, so the rest (40 MiB in all) was not read']);
    // A dump named as nothing hnsight knows is still read whole once its head says what it is.
    const m2 = await loadBundle(z, { limits: { ...DEFAULT_LIMITS, maxEntryBytes: 4 * MiB, maxTotalBytes: 4 * MiB } });
    expect(m2.files.find((f) => f.name === 'saved-rules.txt')?.kind).toBe('vfp');
    expect(m2.vfp?.totals.rules).toBe(8000);
  });

  it('names an entry whose data holds more than its header says, and loads the rest', async () => {
    const z = zeroZip({ 'endpoint.txt': 2 * MiB });
    // Both headers claim 1 MiB; the stream inflates 2 MiB.
    const local = 22;
    const cd = z.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 24;
    z.writeUInt32LE(1 * MiB, local);
    z.writeUInt32LE(1 * MiB, cd);
    await writeFile(path.join(dir, 'liar.zip'), z);
    const m = await loadBundle(path.join(dir, 'liar.zip'));
    expect(issuesOf(m.files, 'endpoint.txt')[0]).toMatch(/^could not be read: cannot read endpoint\.txt from the zip: .*(too many bytes|more than)/);
  });

  it('names a random-bytes vfpOutput.txt over the per-file budget, and says one under it holds no VFP', async () => {
    const b = path.join(dir, 'random');
    await mkdir(b, { recursive: true });
    const junk = Buffer.alloc(3 * MiB);
    let x = 12345;
    for (let i = 0; i < junk.length; i++) {
      x = (x * 1103515245 + 12345) >>> 0;
      junk[i] = x >>> 24;
    }
    await writeFile(path.join(b, 'vfpOutput.txt'), junk);
    const over = await loadBundle(b, { limits: { ...DEFAULT_LIMITS, maxEntryBytes: 2 * MiB } });
    expect(issuesOf(over.files, 'vfpOutput.txt')).toEqual(['not read: it is 3 MiB, more than the 2 MiB hnsight reads from one file (HNSIGHT_MAX_FILE_BYTES raises it)']);
    const under = await loadBundle(b);
    expect(issuesOf(under.files, 'vfpOutput.txt')).toContain('no VFP port, layer, group or rule was found in this file: it does not look like vfpctrl output');
  });
});

describe('the big single files of the audit, at their real sizes', () => {
  // Sparse files: the size is what the budget judges, and nothing of them is read.
  const sparse = async (sub: string, size: number, name = 'vfpOutput.txt') => {
    const b = path.join(dir, sub);
    await mkdir(b, { recursive: true });
    const f = path.join(b, name);
    await writeFile(f, '');
    await truncate(f, size);
    return b;
  };

  it('reads a 2 GB vfpOutput.txt (which loaded for a minute saying nothing) in bounded memory, and says it holds no VFP', async () => {
    // A VFP dump on disk is indexed in windows and never held (issue 27): the per-file budget, which
    // bounds what a load holds, does not apply to it.
    const r = loadInChild(await sparse('two-gb', 2_000_000_000));
    expect(r.files.find((f) => f.name === 'vfpOutput.txt')?.issues).toContain('warning: no VFP port, layer, group or rule was found in this file: it does not look like vfpctrl output');
    expect(r.peakRssBytes).toBeLessThan(512 * MiB);
  }, 300_000);

  it('names a 2.2 GB file by the budget it passes, not by a 2 GiB read limit, and refuses a budget no byte array can hold', async () => {
    const b = await sparse('two-point-two-gb', 2_200_000_000, 'endpoint.txt');
    const r = loadInChild(b);
    expect(r.files.find((f) => f.name === 'endpoint.txt')?.issues).toEqual(['error: not read: it is 2 GiB, more than the 1 GiB hnsight reads from one file (HNSIGHT_MAX_FILE_BYTES raises it)']);
    // Raised past what one byte array holds (4 GiB), the budget is held at that limit, not at 2 GiB.
    expect(limitsFromEnv({ HNSIGHT_MAX_FILE_BYTES: '8G' }).maxEntryBytes).toBe(MAX_FILE_BYTES);
    expect(MAX_FILE_BYTES).toBeGreaterThan(2_200_000_000);
  });
});

describe('budget settings', () => {
  it('reads sizes in bytes or binary multiples', () => {
    expect(parseByteSize('1500000000')).toBe(1_500_000_000);
    expect(parseByteSize('900M')).toBe(900 * MiB);
    expect(parseByteSize('1.5GiB')).toBe(1.5 * GiB);
    expect(parseByteSize('2 gb')).toBe(2 * GiB);
    expect(parseByteSize('lots')).toBeUndefined();
    expect(parseByteSize('-1')).toBeUndefined();
  });

  it('takes the environment, raises the bundle budget with the file budget, and refuses a setting it cannot read', () => {
    expect(limitsFromEnv({})).toEqual(DEFAULT_LIMITS);
    expect(limitsFromEnv({ HNSIGHT_MAX_FILE_BYTES: '3G' })).toMatchObject({ maxEntryBytes: 3 * GiB, maxTotalBytes: 3 * GiB });
    expect(limitsFromEnv({ HNSIGHT_MAX_FILE_BYTES: '100M', HNSIGHT_MAX_BUNDLE_BYTES: '150M' })).toMatchObject({ maxEntryBytes: 100 * MiB, maxTotalBytes: 150 * MiB });
    // Above what one array can hold, the file budget is that.
    expect(limitsFromEnv({ HNSIGHT_MAX_FILE_BYTES: '64G' }).maxEntryBytes).toBeLessThanOrEqual(4 * GiB);
    expect(() => limitsFromEnv({ HNSIGHT_MAX_BUNDLE_BYTES: 'lots' })).toThrow(/HNSIGHT_MAX_BUNDLE_BYTES must be a size in bytes/);
  });
});
