// reachMatrix walks the node with the rules several ports print alike read once (analysis/reach/
// shared-rules.ts) and joins the findings on each rule's own line (withOwnLines). Every cell must be
// what walking the node itself gives — verdict, backends, deciding rule, reason, reply and the findings
// on its path — on every generated platform, the demos and every fixture bundle, with their findings.
import { describe, expect, it } from 'vitest';
import { defaultDestinations, defaultSources, reachMatrix } from '../../../analysis/reach/index.ts';
import { outcomeOf } from '../../../analysis/reach/outcome.ts';
import { withPathFindings } from '../../../analysis/walk/findings-on-path.ts';
import { familyOf } from '../../../analysis/walk/ip.ts';
import { runChecks } from '../../../analysis/checks/index.ts';
import { findingViews } from '../../../analysis/view-models/findings.ts';
import type { Flow } from '../../../analysis/walk/types.ts';
import { allModels } from './models.ts';

const MAX = 400;
/** Cells whose path carries findings, over every bundle: the comparison of findings is not vacuous. */
let withFindings = 0;

describe('the matrix on rules shared between ports', () => {
  for (const n of allModels()) {
    it(`${n.name}: every cell is the walk on the node itself, findings included`, async () => {
      const m = await n.load();
      const findings = findingViews(m, runChecks(m));
      const dests = defaultDestinations(m);
      const cells = reachMatrix(m, dests, { findings, maxWalks: MAX });
      let k = 0;
      for (const s of defaultSources(m))
        for (const d of dests) {
          if (d.ip === s.ip || familyOf(d.ip) !== familyOf(s.ip)) continue;
          const c = cells[k++]!;
          if (c.decidedAt === 'not walked') continue;
          const flow: Flow = { srcIp: s.ip, dstIp: d.ip, proto: d.proto, ...(d.port !== undefined && d.proto !== 'icmp' ? { dstPort: d.port } : {}) };
          const { outcome, walk } = outcomeOf(m, flow);
          const own = withPathFindings(m, walk, findings).findings ?? [];
          const label = `${s.ip} → ${d.ip}:${d.port ?? ''}/${d.proto}`;
          expect({ to: c.to, verdict: c.verdict, verdicts: c.verdicts, decidingRule: c.decidingRule, decidedAt: c.decidedAt, reason: c.reason, reply: c.reply }, label).toEqual({
            to: d.ip,
            verdict: outcome.verdict,
            verdicts: outcome.verdicts,
            decidingRule: outcome.decidingRule,
            decidedAt: outcome.decidedAt,
            reason: outcome.reason,
            reply: outcome.reply ? { verdict: outcome.reply.verdict } : null,
          });
          expect(JSON.stringify(c.findings), label).toBe(JSON.stringify(own));
          if (own.length) withFindings++;
        }
      expect(k).toBe(cells.length);
    });
  }
  it('compared findings on some paths', () => expect(withFindings).toBeGreaterThan(20));
});

describe('findings that quote a rule by its line', () => {
  it('reach the cells whose walk met that rule on that port, not on the port that printed it first', async () => {
    const { buildPlatform } = await import('../platforms/helpers.ts');
    const { walkFlow } = await import('../../../analysis/walk/engine.ts');
    const m = buildPlatform('azure-cni', { pods: 4, services: 5 }).model;
    const dests = defaultDestinations(m).filter((d) => d.port !== undefined && !m.endpoints?.some((e) => e.ip === d.ip));
    const sources = defaultSources(m).filter((s) => s.name !== 'host');
    // A Service cell from the last pod: its load-balancing hop is on that pod's own port, whose rules
    // another pod's port printed first.
    const src = sources[sources.length - 1]!;
    let quoted: { line: number; rule: string; dst: string } | undefined;
    for (const d of dests) {
      const w = walkFlow(m, { srcIp: src.ip, dstIp: d.ip, dstPort: d.port, proto: d.proto });
      const h = w.hops.find((x) => x.kind === 'vfp' && x.effect?.kind === 'lb' && x.evidence);
      if (h) {
        quoted = { line: h.evidence!.line, rule: h.rule!, dst: d.ip };
        break;
      }
    }
    expect(quoted).toBeDefined();
    const finding = {
      id: 'test-quoted-line',
      key: '0',
      severity: 'warning' as const,
      title: 'a rule quoted by its line',
      explanation: '',
      fix: '',
      objects: [],
      evidence: [{ file: 'vfpOutput.txt', line: quoted!.line, excerpt: '' }],
      refs: [],
    };
    // Every pod as a source, the last one after the others: its port's rules were printed first elsewhere.
    const cells = reachMatrix(m, dests, { sources, findings: [finding] as never });
    const hit = cells.filter((c) => c.findings.length);
    expect(hit.map((c) => `${c.from}>${c.to}`)).toContain(`${src.ip}>${quoted!.dst}`);
    // The quoted line is that pod's port's: no other pod's packets met it.
    expect(hit.every((c) => c.from === src.ip)).toBe(true);
  });
});
