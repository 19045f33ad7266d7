// Each check fires on a generated bundle with its fault and stays quiet on the healthy one.
import { describe, expect, it } from 'vitest';
import { build } from '../walk/helpers.ts';
import { runChecks } from '../../../analysis/checks/index.ts';
import type { Finding } from '../../../analysis/findings/types.ts';
import type { NodeSpec } from '../../../tools/gen/index.ts';

const problems = (fs: Finding[]) => fs.filter((f) => f.severity !== 'info');
const byId = (fs: Finding[], id: string) => fs.filter((f) => f.id === id);

const VARIANTS: Partial<NodeSpec>[] = [
  { network: 'l2bridge', schema: 2 },
  { network: 'l2bridge', schema: 1, vfpGeneration: 'list-rule', windowsBuild: '10.0.17763.1' },
  { network: 'overlay', schema: 2 },
  { network: 'overlay', schema: 1 },
];

describe('healthy generated bundles: no false alarms', () => {
  for (const v of VARIANTS) {
    it(`${v.network} schema ${v.schema}`, () => {
      const { model } = build(v);
      const fs = runChecks(model);
      expect(problems(fs)).toEqual([]);
      // Without reservedports.txt the ephemeral-port check says it cannot decide instead of passing.
      expect(byId(fs, 'ephemeral-ports-undecided')).toHaveLength(1);
      expect(fs.every((f) => f.evidence.every((e) => e.file))).toBe(true);
    });
  }
});

const FAULTS: [string, string, (f: Finding, truth: { objects: string[] }) => void][] = [
  ['exception-list-typo', 'outboundnat-exception-typo', (f) => expect(f.objects[0]).toBe('10.244.0.0/0')],
  ['stale-lb-dip', 'lb-stale-dip', (f, t) => expect(f.objects.map((o) => o.toLowerCase())).toEqual(expect.arrayContaining(t.objects.map((o) => o.toLowerCase())))],
  ['blocked-port', 'vfp-port-blocked', (f, t) => expect(f.objects[0].toLowerCase()).toBe(t.objects[0].toLowerCase())],
  ['endpoint-without-vnic', 'endpoint-without-vnic', (f, t) => expect(f.objects[0].toLowerCase()).toBe(t.objects[0].toLowerCase())],
  ['wrong-gateway', 'pod-gateway-wrong', (f, t) => expect(f.objects[0].toLowerCase()).toBe(t.objects[0].toLowerCase())],
  ['duplicate-ip', 'duplicate-ip', (f, t) => expect(f.objects.map((o) => o.toLowerCase())).toEqual(expect.arrayContaining(t.objects.map((o) => o.toLowerCase())))],
];

describe('each generated fault is reported with evidence', () => {
  for (const v of VARIANTS) {
    for (const [fault, id, verify] of FAULTS) {
      it(`${fault} on ${v.network} schema ${v.schema}`, () => {
        const { model, node } = build({ ...v, faults: [fault] });
        const fs = problems(runChecks(model));
        const hit = byId(fs, id);
        expect(hit.length, JSON.stringify(fs.map((f) => f.title))).toBeGreaterThanOrEqual(1);
        expect(hit[0].severity).toBe('error');
        verify(hit[0], node.expected.faults[0]);
        for (const e of hit[0].evidence) if (e.line > 0) expect(e.text.length).toBeGreaterThan(0);
        expect(hit[0].fix.length).toBeGreaterThan(20);
        // No other check is set off by this fault (besides its own consequences).
        const others = fs.filter((f) => f.id !== id && !(fault === 'duplicate-ip' && f.id.startsWith('drift-lb')));
        expect(others.map((f) => f.id)).toEqual([]);
      });
    }
    it(`missing-remote-subnet-route on ${v.network} schema ${v.schema}`, () => {
      const { model, node } = build({ ...v, faults: ['missing-remote-subnet-route'] });
      const fs = problems(runChecks(model));
      const id = v.network === 'l2bridge' ? 'remote-subnet-no-route' : 'drift-remote-subnet-route';
      const hit = byId(fs, id);
      expect(hit).toHaveLength(1);
      expect(hit[0].objects[0]).toBe(node.expected.faults[0].objects[0]);
      expect(hit[0].trace?.dstIp).toMatch(/^10\.244\./);
      if (v.network === 'overlay') {
        // Drift cites the HNS line and the port section without the rule.
        expect(hit[0].evidence[0].file).toBe('network.txt');
        expect(hit[0].evidence[0].text).toContain(node.expected.faults[0].objects[0]);
        expect(hit[0].evidence[1].file).toBe('vfpOutput.txt');
        expect(hit[0].evidence[1].text).toMatch(/Policy for port/);
      } else {
        expect(hit[0].evidence.some((e) => e.file === 'routes.txt' && /0\.0\.0\.0/.test(e.text))).toBe(true);
      }
    });
  }
});
