// A big VFP dump is indexed in windows and its bytes read again from the file when needed (issue 27):
// from a folder, and from a zip, whose big entry is inflated once to a temporary file (0600, under the
// OS temp dir, removed when the node is closed). What the user sees — ports, rules, evidence lines,
// excerpts — is the same as when the dump is held in memory.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBundle } from '../../../services/bundle/load.ts';
import { releaseNode } from '../../../services/bundle/memory-budget.ts';
import { liveTemps } from '../../../services/bundle/temp-files.ts';
import { ExcerptReader } from '../../../services/excerpt.ts';
import { DEFAULT_LIMITS } from '../../../services/bundle/limits.ts';
import { makeZip } from '../../helpers/zip.ts';
import { readPortRules } from '../../../parsers/vfp/rule-at.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const DEMO = path.join(repo, 'assets/demo/l2bridge-node');
const MiB = 1024 * 1024;

let dir: string;
let folder: string;
let zip: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hnsight-ondemand-'));
  folder = path.join(dir, 'node');
  await cp(DEMO, folder, { recursive: true });
  // The demo's dump, then one more port with enough rules to pass 16 MiB (what goes to the worker and is read on demand).
  const demo = await readFile(path.join(DEMO, 'vfpOutput.txt'), 'latin1');
  const rule = (i: number) => `        RULE : FILLER_RULE_${i}\r\n          Friendly name : filler-${i % 97}\r\n          Priority : ${i}\r\n          Flags : 1 terminating\r\n          Type : allow\r\n          Conditions:\r\n            Protocol : 6\r\n            Destination IP : 10.0.${i % 250}.${i % 200}\r\n          Flow TTL: 0\r\n          FlagsEx : 0\r\n`;
  const parts = [demo, 'Policy for port : FILLER-PORT\r\n  LAYER : FILLER_LAYER\r\n    Priority : 1\r\n    GROUP : FILLER_GROUP\r\n'];
  let n = demo.length;
  for (let i = 0; n < 17 * MiB; i++) {
    const r = rule(i);
    parts.push(r);
    n += r.length;
  }
  parts.push('Command list-rule succeeded!\r\n');
  await writeFile(path.join(folder, 'vfpOutput.txt'), Buffer.from(parts.join(''), 'latin1'));
  const files: Record<string, Uint8Array> = {};
  for (const f of ['vfpOutput.txt', 'endpoint.txt', 'network.txt', 'ip.txt', 'routes.txt', 'ports.txt', 'hnsdiag.txt']) files[`node/${f}`] = await readFile(path.join(folder, f));
  zip = path.join(dir, 'node.zip');
  await writeFile(zip, await makeZip(files));
}, 400_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What a user sees of the VFP dump: totals, every port's policy, evidence lines, an excerpt. */
async function seen(m: NodeModel, location: string) {
  const f = m.vfp!.files[0]!;
  // The demo's ports (the filler port's 58,000 rules are compared by count: parsing them is slow here).
  const ports = (m.ports ?? []).filter((p) => p.policy && p.name !== 'FILLER-PORT').map((p) => p.name);
  const lines = [1, 2, 50, 1000, 5000, f.index.lines - 1, f.index.lines, f.index.lines + 1];
  const excerpts = new ExcerptReader(m, async () => {
    throw new Error(`only VFP excerpts here (${location})`);
  });
  return {
    totals: m.vfp!.totals,
    policies: ports.map((name) => JSON.stringify(m.vfp!.getPolicy(name))),
    filler: readPortRules(f.bytes, f.index, f.index.ports.length - 1).map((r) => `${r.name} ${r.src.line}`).filter((_, i) => i % 997 === 0),
    lines: lines.map((l) => m.text?.lineText(f.file, l)),
    found: m.text?.find(f.file, 1000, (t) => t.includes('Friendly name : filler-5'))?.line,
    excerpt: await excerpts.excerpt(f.file, 4000),
    issues: m.files.flatMap((x) => x.issues.map((i) => `${i.file}:${i.line} ${i.message}`)),
  };
}

/**
 * The folder loaded with the dump held whole, and what it shows: the reference both on-demand loads
 * are compared with. Loaded once (a 17 MiB dump parsed whole is the costliest step of this file).
 */
let reference: Promise<{ model: NodeModel; seen: Awaited<ReturnType<typeof seen>> }> | undefined;
function inMemory() {
  reference ??= loadBundle(folder, { bigFileBytes: Number.POSITIVE_INFINITY }).then(async (model) => ({ model, seen: await seen(model, folder) }));
  return reference;
}

describe('a big VFP dump read on demand', () => {
  it('from a folder: not held in memory, and everything shown is what the dump held in memory shows', async () => {
    const whole = await inMemory();
    expect(whole.model.vfp!.files[0]!.bytes.whole).toBeDefined();
    const onDemand = await loadBundle(folder);
    expect(onDemand.vfp!.files[0]!.bytes.whole).toBeUndefined();
    expect(onDemand.vfp!.totals.rules).toBeGreaterThan(40_000);
    expect(await seen(onDemand, folder)).toEqual(whole.seen);
  }, 400_000);

  it('from a zip: the big entry is inflated once to a private temporary file, removed when the node is closed', async () => {
    const before = liveTemps().length;
    const m = await loadBundle(zip);
    expect(m.vfp!.files[0]!.bytes.whole).toBeUndefined();
    const temps = liveTemps().slice(before);
    expect(temps).toHaveLength(1);
    const t = temps[0]!;
    expect(t.startsWith(tmpdir())).toBe(true);
    expect(statSync(t).mode & 0o777).toBe(0o600);
    expect(statSync(t).size).toBe(statSync(path.join(folder, 'vfpOutput.txt')).size);
    const a = await seen(m, zip);
    const b = (await inMemory()).seen;
    expect(b.totals.rules).toBeGreaterThan(40_000);
    expect(a.totals).toEqual(b.totals);
    expect(a.policies).toEqual(b.policies);
    expect(a.lines).toEqual(b.lines);
    expect(a.excerpt).toEqual(b.excerpt);
    releaseNode(m);
    expect(existsSync(t)).toBe(false);
    expect(liveTemps()).toHaveLength(before);
  }, 400_000);

  it('a zip whose entries together inflate past the zip total: the entry is named with the zip, the rest loads', async () => {
    const m = await loadBundle(zip, { limits: { ...DEFAULT_LIMITS, maxZipBytes: 16 * MiB } });
    const vfp = m.files.find((f) => f.name === 'vfpOutput.txt')!;
    expect(vfp.encoding).toBe('not-read');
    expect(vfp.issues[0]!.message).toContain(zip);
    expect(vfp.issues[0]!.message).toMatch(/inflates? from one zip/);
    expect(m.files.find((f) => f.name === 'endpoint.txt')!.encoding).not.toBe('not-read');
    expect(liveTemps().filter((p) => p.endsWith('vfpOutput.txt'))).toHaveLength(0);
  }, 400_000);
});
