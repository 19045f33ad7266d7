// Issue #25 point 6, the walk's promises over every class of an IPv6 source's partition on the
// dual-stack nodes (as invariants.test.ts for IPv4): nothing is delivered to a pod without a vNIC
// unless the verdict says so; a load balancer's DNAT lands in its rule's DIP set; the reply of a
// delivered or forwarded TCP/UDP flow comes back unless a named rule or a caveat of the walk says why.
import { describe, expect, it } from 'vitest';
import { reachFrom } from '../../../analysis/reach/index.ts';
import { sources6 } from '../../../analysis/reach/v6/sources6.ts';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import { walkContext } from '../../../analysis/walk/context.ts';
import { canonIp } from '../../../analysis/walk/ip.ts';
import { withPathFindings } from '../../../analysis/walk/findings-on-path.ts';
import { modelFindings } from '../../../analysis/view-models/findings.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';
import type { VfpRule } from '../../../parsers/vfp/index.ts';
import { dualStackModels } from './models-v6.ts';

function ruleOn(m: NodeModel, port: string | undefined, name: string | undefined): VfpRule | undefined {
  if (!port || !name || !m.vfp) return undefined;
  for (const l of m.vfp.getPolicy(port)?.layers ?? []) for (const g of l.groups) for (const r of g.rules) if (r.name === name) return r;
  return undefined;
}

/** Caveats that say why a reply does not come back. */
const WHY = new Set(['no-return', 'reply-mismatch', 'stateless-rewrite', 'black-hole', 'unmodelled', 'ambiguous']);

describe('reach from IPv6 sources: the walk keeps its promises over every class', () => {
  for (const n of dualStackModels()) {
    it(n.name, async () => {
      const m = await n.load();
      const ctx = walkContext(m);
      const findings = modelFindings(m);
      let replies = 0;
      for (const src of sources6(m)) {
        for (const c of reachFrom(m, src.ip).classes) {
          const dips = c.verdicts?.map((v) => v.dip) ?? [undefined];
          for (const dip of dips) {
            const w = withPathFindings(m, walkFlow(m, { srcIp: src.ip, dstIp: c.example.dstIp, dstPort: c.example.dstPort, proto: c.proto, ...(dip ? { dip } : {}) }, { reply: true }), findings);
            const what = `${src.ip} → [${c.example.dstIp}]:${c.example.dstPort ?? ''}/${c.proto}${dip ? ` backend ${dip}` : ''}`;
            if (w.verdict === 'delivered' && m.ip) {
              const ep = ctx.local.get(canonIp(w.final.dstIp) ?? '');
              if (ep && !ctx.adapterOf.has(ep.id)) expect(w.verdictCaveat?.text ?? '', `${what} delivered to ${w.final.dstIp}, which has no vNIC`).toMatch(/no vNIC/);
            }
            for (const h of w.hops) {
              if (h.action !== 'DNAT' || !h.rewrite?.dstIp) continue;
              const rule = ruleOn(m, h.port, h.rule);
              if (rule?.dipRanges.length) expect(rule.dipRanges.map((d) => canonIp(d.ip)), `${what}: ${h.rule}`).toContain(canonIp(h.rewrite.dstIp));
            }
            if ((w.verdict === 'delivered' || w.verdict === 'forwarded') && c.proto !== 'icmp' && w.reply) {
              replies++;
              const back = w.reply.verdict === 'delivered' || w.reply.verdict === 'forwarded';
              const named = w.reply.hops[w.reply.deciding]?.rule !== undefined;
              const said = [...(w.caveats ?? []), ...(w.reply.caveats ?? [])].some((x) => WHY.has(x.kind)) || w.reply.dependsOnUnmodelled || w.inferred || !!w.verdictCaveat;
              expect(back || named || said, `${what}: the reply is ${w.reply.verdict} (${w.reply.reason}) and nothing says why`).toBe(true);
            }
          }
        }
      }
      // The property was exercised, not skipped.
      expect(replies).toBeGreaterThan(10);
    }, 120_000);
  }
});
