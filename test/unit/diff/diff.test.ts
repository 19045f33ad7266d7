// Diff on generated before/after bundles of one node: exactly the objects and rules that changed,
// counter deltas when both dumps have counters, and the findings that appear or disappear.
import { beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildNode, writeBundle, DEMOS, type NodeSpec } from '../../../tools/gen/index.ts';
import { loadBundle } from '../../../services/bundle/load.ts';
import { runChecks } from '../../../analysis/checks/index.ts';
import { diffModels, formatDiff, type DiffResult } from '../../../analysis/diff/index.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';
import { main } from '../../../cli/main.ts';

// The demo's shape without its faults: a healthy node the faulty ones are compared with.
const base: NodeSpec = { ...DEMOS[0].spec, seed: 7, faults: [] };
let dir: string;
const models: Record<string, NodeModel> = {};

async function make(name: string, spec: NodeSpec): Promise<void> {
  await writeBundle(buildNode(spec), path.join(dir, name), { encoding: 'utf16le-bom', eol: 'crlf', extras: false });
}

function diff(a: string, b: string): DiffResult {
  return diffModels(models[a], models[b], { findingsA: runChecks(models[a]), findingsB: runChecks(models[b]) });
}

const sec = (d: DiffResult, kind: string) => d.sections.find((s) => s.kind === kind)!;
const counts = (d: DiffResult) => Object.fromEntries(d.sections.map((s) => [s.kind, [s.added.length, s.removed.length, s.changed.length]]));

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'hnsight-diff-'));
  await make('healthy', base);
  await make('route', { ...base, faults: ['missing-remote-subnet-route'] });
  await make('stale', { ...base, faults: ['stale-lb-dip'] });
  await make('service', { ...base, services: base.services! + 1 });
  // The same node later: one rule's counters moved.
  cpSync(path.join(dir, 'healthy'), path.join(dir, 'later'), { recursive: true });
  const vfp = path.join(dir, 'later', 'vfpOutput.txt');
  const text = readFileSync(vfp, 'latin1').split('\n');
  const ruleAt = text.findIndex((l) => /^\s*RULE\s*:\s*LB_DSR_/.test(l));
  const matched = text.findIndex((l, i) => i > ruleAt && /^\s*Matched packets\s*:/.test(l));
  const dropped = text.findIndex((l, i) => i > ruleAt && /^\s*Dropped packets\s*:/.test(l));
  const before = Number(/:\s*(\d+)/.exec(text[matched])![1]);
  text[matched] = text[matched].replace(/:\s*\d+/, `: ${before + 1500}`);
  text[dropped] = text[dropped].replace(/:\s*\d+/, (m) => `: ${Number(/\d+/.exec(m)![0]) + 7}`);
  writeFileSync(vfp, text.join('\n'), 'latin1');
  for (const n of ['healthy', 'route', 'stale', 'service', 'later']) models[n] = await loadBundle(path.join(dir, n));
});

describe('diff', () => {
  it('finds nothing between a bundle and itself', () => {
    const d = diff('healthy', 'healthy');
    expect(d.totals).toEqual({ added: 0, removed: 0, changed: 0 });
    expect(d.counters).toEqual([]);
    expect(d.findings).toEqual({ appeared: [], disappeared: [] });
    expect(d.sameHost).toBe(true);
    expect(formatDiff(d)).toContain('no differences');
  });

  it('a deleted remote-subnet route: exactly that route, and the finding that appears', () => {
    const d = diff('healthy', 'route');
    expect(counts(d)).toEqual({ network: [0, 0, 0], endpoint: [0, 0, 0], loadbalancer: [0, 0, 0], route: [0, 1, 0], port: [0, 0, 0], rule: [0, 0, 0] });
    const gone = sec(d, 'route').removed[0];
    const remote = models.healthy.endpoints!.find((e) => e.isRemote && e.ip?.startsWith('10.244.'))!;
    expect(gone.label).toMatch(/^route 10\.244\.\d+\.0\/24 via 10\.240\.0\.\d+/);
    expect(gone.src?.file).toBe('routes.txt');
    expect(remote).toBeDefined();
    expect(d.findings.appeared.map((f) => f.id)).toEqual(['remote-subnet-no-route']);
    expect(d.findings.disappeared).toEqual([]);
    // And back: the route appears, the finding disappears.
    const back = diff('route', 'healthy');
    expect(sec(back, 'route').added.map((x) => x.key)).toEqual([gone.key]);
    expect(back.findings.disappeared.map((f) => f.id)).toEqual(['remote-subnet-no-route']);
  });

  it('a stale LB backend: the load balancer changed and its lbnat rule on every port that has it', () => {
    const d = diff('healthy', 'stale');
    const lb = sec(d, 'loadbalancer');
    expect(lb.changed.length).toBe(1);
    expect(lb.changed[0].fields.map((f) => f.field)).toEqual(['backends']);
    expect(lb.changed[0].fields[0].b).toMatch(/no such endpoint/);
    const rules = sec(d, 'rule');
    expect(rules.added).toEqual([]);
    expect(rules.removed).toEqual([]);
    const vip = lb.changed[0].key.split(':')[0];
    expect(rules.changed.length).toBeGreaterThan(0);
    for (const c of rules.changed) {
      expect(c.label).toContain(vip);
      expect(c.fields.map((f) => f.field)).toEqual(['dipRanges']);
    }
    expect(counts(d).endpoint).toEqual([0, 0, 0]);
    expect(d.findings.appeared.map((f) => f.id)).toContain('lb-stale-dip');
  });

  it('a service added: one load balancer, its rules on each port, the ports’ rule counts', () => {
    const d = diff('healthy', 'service');
    const lb = sec(d, 'loadbalancer');
    expect(lb.added.length).toBe(1);
    expect(lb.removed).toEqual([]);
    expect(lb.changed).toEqual([]);
    const vip = lb.added[0].key.split(':')[0];
    const rules = sec(d, 'rule');
    expect(rules.removed).toEqual([]);
    expect(rules.changed).toEqual([]);
    expect(rules.added.length).toBeGreaterThan(0);
    for (const r of rules.added) expect(r.label).toContain(vip);
    const portsWithNewRules = new Set(rules.added.map((r) => r.key.split('/')[0]));
    const ports = sec(d, 'port');
    expect(new Set(ports.changed.map((p) => p.key))).toEqual(portsWithNewRules);
    for (const p of ports.changed) expect(p.fields.map((f) => f.field)).toEqual(['rules']);
    expect(counts(d).endpoint).toEqual([0, 0, 0]);
    expect(counts(d).route).toEqual([0, 0, 0]);
  });

  it('the same node later: only the counters of the rule that moved', () => {
    const d = diff('healthy', 'later');
    expect(d.totals).toEqual({ added: 0, removed: 0, changed: 0 });
    expect(d.countersSkipped).toBeUndefined();
    expect(d.counters.length).toBe(1);
    const c = d.counters[0];
    expect(c.label).toMatch(/^LB_DSR_/);
    expect(c.delta.matchedPackets).toBe(1500);
    expect(c.delta.droppedPackets).toBe(7);
    expect(formatDiff(d)).toMatch(/matched \+1500, dropped \+7/);
  });

  it('says when counters cannot be compared (list-rule dumps have none)', async () => {
    const old = path.join(dir, 'listrule');
    await writeBundle(buildNode({ ...base, vfpGeneration: 'list-rule' }), old, { extras: false });
    const m = await loadBundle(old);
    const d = diffModels(models.healthy, m);
    expect(d.countersSkipped).toMatch(/second dump has no rule counters/);
  });

  it('hnsight diff exits 0 with differences and prints JSON with --json; 2 on a missing bundle', async () => {
    const chunks: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((s: string) => (chunks.push(String(s)), true)) as typeof process.stdout.write;
    let code: number;
    try {
      code = await main(['diff', path.join(dir, 'healthy'), path.join(dir, 'route'), '--json']);
    } finally {
      process.stdout.write = write;
    }
    expect(code).toBe(0);
    const j = JSON.parse(chunks.join('')) as DiffResult;
    expect(j.schema).toBe('hnsight-diff/1');
    expect(j.totals.removed).toBe(1);
    const err = process.stderr.write.bind(process.stderr);
    process.stderr.write = (() => true) as typeof process.stderr.write;
    try {
      expect(await main(['diff', path.join(dir, 'healthy'), path.join(dir, 'nope')])).toBe(2);
      expect(await main(['diff', path.join(dir, 'healthy')])).toBe(2);
    } finally {
      process.stderr.write = err;
    }
  });
});
