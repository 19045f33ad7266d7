// The readable form of a trace, like `ovn-trace --summary`: one line per hop, then the verdict and
// the rule that decided it.
import type { Packet, WalkHop, WalkResult } from './types.ts';

const tuple = (p: { srcIp: string; dstIp: string; srcPort?: number; dstPort?: number; proto: string }) =>
  `${p.proto.toUpperCase()} ${p.srcIp}${p.srcPort !== undefined ? `:${p.srcPort}` : ''} → ${p.dstIp}${p.dstPort !== undefined ? `:${p.dstPort}` : ''}`;

function rewriteText(h: WalkHop): string {
  const r = h.rewrite;
  if (!r) return '';
  const parts: string[] = [];
  if (r.dstIp || r.dstPort !== undefined) parts.push(`dst → ${r.dstIp ?? h.before?.dstIp}${r.dstPort !== undefined ? `:${r.dstPort}` : ''}`);
  if (r.srcIp || r.srcPort !== undefined) parts.push(`src → ${r.srcIp ?? h.before?.srcIp}${r.srcPort !== undefined ? `:${r.srcPort}` : ''}`);
  if (r.srcMac) parts.push(`src MAC → ${r.srcMac}`);
  if (r.dstMac) parts.push(`dst MAC → ${r.dstMac}`);
  if (r.encap) parts.push(`${r.encap.type} to ${r.encap.dstIp}${r.encap.vni !== undefined ? ` VNI ${r.encap.vni}` : ''}`);
  return parts.join(', ');
}

export function formatWalk(t: WalkResult): string {
  const out: string[] = [];
  const f = t.flow;
  out.push(`trace ${tuple({ ...f, srcPort: t.hops[0]?.after?.srcPort ?? f.srcPort })}`);
  out.push('');
  t.hops.forEach((h, i) => {
    const head = `${String(i + 1).padStart(2)}. ${h.at}`;
    const what = h.layer ? `${h.layer}${h.group ? ` / ${h.group}` : ''}${h.rule ? ` / ${h.rule}` : ''}${h.ruleType ? ` [${h.ruleType}]` : ''}` : '';
    const rw = rewriteText(h);
    out.push(`${head}${what ? `  ${what}` : ''}`);
    out.push(`      ${h.action}${rw ? `: ${rw}` : ''}${h.inferred ? '  (inferred)' : ''}${h.evidence ? `  — ${h.evidence.file}:${h.evidence.line}` : ''}`);
    if (h.note) out.push(`      ${h.note}`);
    if (h.alternatives?.length) out.push(`      other backends: ${h.alternatives.join(', ')}`);
  });
  out.push('');
  const fin = t.final;
  out.push(`verdict: ${t.verdict.toUpperCase()} — ${t.reason}`);
  out.push(`final:   ${tuple(fin)}`);
  if (t.egress.nextHop || t.egress.encapDst || t.egress.interface) {
    out.push(`egress:  ${[t.egress.nextHop && `next hop ${t.egress.nextHop}`, t.egress.interface && `interface ${t.egress.interface}`, t.egress.encapDst && `encap to ${t.egress.encapDst}`].filter(Boolean).join(', ')}`);
  }
  if (t.returnPath) {
    const rp = t.returnPath;
    out.push(`reply:   ${tuple(rp.sent)}  ⇒  arrives as ${tuple(rp.received)}`);
    for (const st of rp.steps) out.push(`         ${st.what} (${st.rule ?? 'hop ' + (st.hop + 1)}${st.evidence ? ` — ${st.evidence.file}:${st.evidence.line}` : ''})`);
    for (const n of rp.notes) out.push(`         ${n}`);
  }
  const d = t.hops[t.deciding];
  if (d) out.push(`decided by: ${d.rule ? `${d.rule}${d.layer ? ` (${d.layer})` : ''}` : d.at}${d.evidence ? ` at ${d.evidence.file}:${d.evidence.line}` : ''}`);
  return out.join('\n') + '\n';
}

export function describePacket(p: Packet): string {
  return `${tuple(p)}${p.encap ? ` in ${p.encap.type} to ${p.encap.dstIp}` : ''}`;
}
