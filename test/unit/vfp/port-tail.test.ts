// A port's trailing sections read without its rules (parsers/vfp/port-tail.ts) are what the whole
// port's parse gives — NAT ranges, port state, flow stats, section lines — on the layout
// dumpVfpPolicies.ps1 writes (rules, then get-port-state, list-nat-range, get-flow-stats:
// ../shared/reference/collectlogs-formats.md §3), and a layout where the sections come first falls back
// to the whole parse rather than answering less.
import { describe, expect, it } from 'vitest';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBundle } from '../../../services/bundle/load.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';
import { withNatRanges } from '../../helpers/nat-ranges.ts';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures');
const AKS = path.join(FIXTURES, 'foreign/aks-win-zip-2025');
const L2BRIDGE = path.join(FIXTURES, 'foreign-faults/l2bridge-missing-remote-route');

const AFTER_RULES = new Set(['get-port-state', 'list-nat-range', 'get-flow-stats']);

function sectionsOf(p: { natRanges: string[]; portState: Record<string, string>; flowStats: Record<string, string>; sections: { command: string; line: number }[] } | undefined) {
  // The sections printed after the rules (list-space and list-mapping come before them: not in a tail).
  return p && { natRanges: p.natRanges, portState: p.portState, flowStats: p.flowStats, sections: p.sections.filter((s) => AFTER_RULES.has(s.command)) };
}

/** Every port's tail against its whole parse; how many were answered from the tail alone. */
function compareAll(m: NodeModel): number {
  let fromTail = 0;
  for (const port of m.ports ?? []) {
    if (!port.policy) continue;
    // The tail first: getPolicy's cache would answer it otherwise.
    const tail = m.vfp!.getPortSections(port.key);
    if (tail && tail.layers.length === 0) fromTail++;
    const whole = m.vfp!.getPolicy(port.key);
    expect(sectionsOf(tail), port.key).toEqual(sectionsOf(whole));
  }
  return fromTail;
}

function natCopy(src: string): string {
  const { dir, filled } = withNatRanges(src);
  expect(filled).toBeGreaterThan(0);
  return dir;
}

describe("a port's sections without its rules", () => {
  it('equal the whole parse on a real AKS dump, every port answered from its tail', async () => {
    const m = await loadBundle(AKS);
    const ports = (m.ports ?? []).filter((p) => p.policy).length;
    expect(ports).toBeGreaterThan(3);
    expect(compareAll(m)).toBe(ports);
  });

  it('equal the whole parse with NAT ranges listed, at the same lines', async () => {
    const dir = natCopy(L2BRIDGE);
    try {
      const m = await loadBundle(dir);
      const ports = (m.ports ?? []).filter((p) => p.policy).length;
      expect(compareAll(m)).toBe(ports);
      const some = (m.ports ?? []).find((p) => p.policy && m.vfp!.getPortSections(p.key)!.natRanges.some((l) => /Start port/.test(l)));
      expect(some).toBeDefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fall back to the whole parse when the sections come before the rules', async () => {
    const dir = natCopy(L2BRIDGE);
    try {
      const vfp = path.join(dir, 'vfpOutput.txt');
      // Another layout: each port's trailing sections moved right after its `Policy for port` lines.
      const text = readFileSync(vfp, 'latin1');
      let k = 0;
      const moved = text.replace(/(Policy for port : \r?\n[^\r\n]*\r?\n)([\s\S]*?Command (?:get-rule-counter|list-rule) succeeded!\r?\n)([\s\S]*?Command list-nat-range succeeded!\r?\n)/g, (_a, head: string, rules: string, tail: string) => {
        k++;
        return `${head}${tail}${rules}`;
      });
      expect(moved).not.toBe(text);
      writeFileSync(vfp, moved, 'latin1');
      const m = await loadBundle(dir);
      const ports = (m.ports ?? []).filter((p) => p.policy).length;
      expect(k).toBeGreaterThan(0);
      // The moved ports are parsed whole (every port still equal); a port the move left in order (the
      // pattern spans a port that prints no rules into the next) may keep its tail.
      expect(compareAll(m)).toBeLessThan(ports - k / 2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
