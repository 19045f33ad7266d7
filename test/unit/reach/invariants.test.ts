// Issue #25 point 6, the walk's own promises over every class of a pod's partition and of the host's,
// on every platform, demo and fixture bundle: nothing is delivered to a pod without a vNIC unless the
// verdict carries it ("DELIVERED, but … has no vNIC": the walk's contract keeps the verdict the rules
// give and joins the finding, analysis/walk/types.ts verdictCaveat); a load
// balancer's DNAT lands in its rule's DIP set; the reply of a delivered or forwarded TCP/UDP flow comes
// back unless a named rule or a caveat of the walk says why.
import { describe, expect, it } from 'vitest';
import { defaultSources } from '../../../analysis/reach/index.ts';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import { walkContext } from '../../../analysis/walk/context.ts';
import { canonIp } from '../../../analysis/walk/ip.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';
import type { VfpRule } from '../../../parsers/vfp/index.ts';
import { withPathFindings } from '../../../analysis/walk/findings-on-path.ts';
import { modelFindings } from '../../../analysis/view-models/findings.ts';
import { allModels, reachOnce } from './models.ts';

function ruleOn(m: NodeModel, port: string | undefined, name: string | undefined): VfpRule | undefined {
  if (!port || !name || !m.vfp) return undefined;
  const p = m.vfp.getPolicy(port);
  for (const l of p?.layers ?? []) for (const g of l.groups) for (const r of g.rules) if (r.name === name) return r;
  return undefined;
}

/** Caveats that say why a reply does not come back (not the ICMP or general limits). */
const WHY = new Set(['no-return', 'reply-mismatch', 'stateless-rewrite', 'black-hole', 'unmodelled', 'ambiguous']);

describe('reach: the walk keeps its promises over every class', () => {
  for (const n of allModels()) {
    it(`${n.name}`, async () => {
      const m = await n.load();
      const ctx = walkContext(m);
      const sources = defaultSources(m);
      const findings = modelFindings(m);
      const picked = [sources[0], sources.find((s) => s.name === 'host')].filter((s): s is NonNullable<typeof s> => !!s);
      for (const src of picked) {
        // The classes as split.test.ts and partition.test.ts compute them (once per worker: models.ts).
        const r = reachOnce(n, m, src.ip);
        for (const c of r.classes) {
          const w = withPathFindings(m, walkFlow(m, { srcIp: src.ip, dstIp: c.example.dstIp, dstPort: c.example.dstPort, proto: c.proto }, { reply: true }), findings);
          const what = `${src.ip} → ${c.example.dstIp}:${c.example.dstPort ?? ''}/${c.proto}`;
          // Nothing delivered to a pod whose vNIC is not in any compartment (when ip.txt says).
          if (w.verdict === 'delivered' && m.ip) {
            const ep = ctx.local.get(canonIp(w.final.dstIp) ?? '');
            if (ep && !ctx.adapterOf.has(ep.id)) expect(w.verdictCaveat?.text ?? '', `${what} delivered to ${w.final.dstIp}, which has no vNIC, and the verdict does not say so`).toMatch(/no vNIC/);
          }
          // A DNAT by a load-balancing rule lands in that rule's DIP set.
          for (const h of w.hops) {
            if (h.action !== 'DNAT' || !h.rewrite?.dstIp) continue;
            const rule = ruleOn(m, h.port, h.rule);
            if (rule?.dipRanges.length) expect(rule.dipRanges.map((d) => d.ip), `${what}: ${h.rule}`).toContain(h.rewrite.dstIp);
          }
          // Replies of delivered/forwarded stateful TCP/UDP return, unless a named rule or a caveat says why.
          if ((w.verdict === 'delivered' || w.verdict === 'forwarded') && c.proto !== 'icmp' && w.reply) {
            const back = w.reply.verdict === 'delivered' || w.reply.verdict === 'forwarded';
            const named = w.reply.hops[w.reply.deciding]?.rule !== undefined;
            // Said: a caveat of either walk, an unmodelled or inferred hop, or an error or warning on the path.
            const said = [...(w.caveats ?? []), ...(w.reply.caveats ?? [])].some((x) => WHY.has(x.kind)) || w.reply.dependsOnUnmodelled || w.inferred || !!w.verdictCaveat;
            expect(back || named || said, `${what}: the reply is ${w.reply.verdict} (${w.reply.reason}) and nothing says why`).toBe(true);
          }
        }
      }
    }, 120_000);
  }
});
