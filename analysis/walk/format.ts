// The readable form of a walk, like `ovn-trace --summary`: one line per hop, then the verdict with
// its flags (a step that is an inference, a rule whose effect is not modelled), the caveats, and the
// rule that decided it. A walked reply follows under its own heading.
import type { MatchedCondition, Packet, WalkFinding, WalkHop, WalkResult } from './types.ts';
import { hostPort as ep } from '../../parsers/net/address.ts';

const tuple = (p: { srcIp: string; dstIp: string; srcPort?: number; dstPort?: number; proto: string }) => `${p.proto.toUpperCase()} ${ep(p.srcIp, p.srcPort)} → ${ep(p.dstIp, p.dstPort)}`;

function rewriteText(h: WalkHop): string {
  const r = h.rewrite;
  if (!r) return '';
  const parts: string[] = [];
  if (r.dstIp || r.dstPort !== undefined) parts.push(`dst → ${ep(r.dstIp ?? h.before?.dstIp ?? '', r.dstPort)}`);
  if (r.srcIp || r.srcPort !== undefined) parts.push(`src → ${ep(r.srcIp ?? h.before?.srcIp ?? '', r.srcPort)}`);
  if (r.srcMac) parts.push(`src MAC → ${r.srcMac}`);
  if (r.dstMac) parts.push(`dst MAC → ${r.dstMac}`);
  if (r.encap) parts.push(`${r.encap.type} to ${r.encap.dstIp}${r.encap.vni !== undefined ? ` VNI ${r.encap.vni}` : ''}`);
  return parts.join(', ');
}

/** The flags shown after a hop's action. */
export function hopFlags(h: WalkHop): string[] {
  const f: string[] = [];
  if (h.unmodelled) f.push('unmodelled');
  if (h.ambiguous) f.push('ambiguous');
  if (h.inferred) f.push('inferred');
  if (h.superseded) f.push('overridden');
  if (h.flow) f.push('flow state');
  return f;
}

/** The verdict's flags in words, for every rendering (CLI, report). */
export function verdictFlags(t: WalkResult): string[] {
  const f: string[] = [];
  if (t.dependsOnUnmodelled) f.push('depends on an unmodelled rule');
  if (t.inferred) f.push('some steps are inferred');
  return f;
}

/** One condition of a matched rule against the packet: `destination IP 8.8.8.8 ∈ 0.0.0.0-255.255.255.255`. */
export function conditionText(c: MatchedCondition): string {
  return c.result === 'match' ? `${c.field} ${c.value} ∈ ${c.condition}` : `${c.field} ${c.value} vs ${c.condition} (not evaluable: assumed to match)`;
}

/** Why a hop's rule matched, in one line; undefined when the hop is no rule match. */
export function matchedText(h: { matchedBecause?: MatchedCondition[] }): string | undefined {
  if (!h.matchedBecause) return undefined;
  return h.matchedBecause.length ? h.matchedBecause.map(conditionText).join('; ') : 'the rule has no condition: it matches every packet';
}

/** "DELIVERED, but …" / "DROPPED, and …": the verdict with the worst finding on its path. */
export function verdictWithCaveat(t: Pick<WalkResult, 'verdict' | 'verdictCaveat'>, upper = true): string {
  const v = upper ? t.verdict.toUpperCase() : t.verdict;
  return t.verdictCaveat ? `${v}, ${caveatClause(t)}` : v;
}

/** "but <text>" after a verdict that says the packet got through, "and <text>" after one that says it did not. */
export function caveatClause(t: Pick<WalkResult, 'verdict' | 'verdictCaveat'>): string {
  if (!t.verdictCaveat) return '';
  return `${t.verdict === 'delivered' || t.verdict === 'forwarded' ? 'but' : 'and'} ${t.verdictCaveat.text}`;
}

/** A finding on the path in one line. */
export function walkFindingText(f: WalkFinding): string {
  return `finding (${f.severity}): ${f.title} — ${f.why}`;
}

/** One hop as lines of text (the walk's own rendering; a walk across nodes uses it per node). */
export function formatHop(h: WalkHop, i: number): string[] {
  const out: string[] = [];
  const head = `${String(i + 1).padStart(2)}. ${h.at}`;
  const what = h.layer ? `${h.layer}${h.group ? ` / ${h.group}` : ''}${h.rule ? ` / ${h.rule}` : ''}${h.ruleType ? ` [${h.ruleType}]` : ''}` : '';
  const rw = rewriteText(h);
  const flags = hopFlags(h);
  out.push(`${head}${what ? `  ${what}` : ''}`);
  out.push(`      ${h.action}${rw ? `: ${rw}` : ''}${flags.length ? `  (${flags.join(', ')})` : ''}${h.evidence ? `  — ${h.evidence.file}:${h.evidence.line}` : ''}`);
  if (h.unmodelled) out.push(`      unmodelled: ${h.unmodelled}`);
  const why = matchedText(h);
  if (why) out.push(`      matched: ${why}`);
  if (h.note) out.push(`      ${h.note}`);
  if (h.alternatives?.length) out.push(`      other backends: ${h.alternatives.join(', ')}`);
  return out;
}

export { tuple as formatTuple };

function body(t: WalkResult, out: string[]): void {
  t.hops.forEach((h, i) => {
    out.push(...formatHop(h, i));
    for (const f of t.findings ?? []) if (f.hop === i) out.push(`      ${walkFindingText(f)}`);
  });
  out.push('');
  const flags = verdictFlags(t);
  out.push(`verdict: ${t.verdict.toUpperCase()}${flags.length ? ` (${flags.join('; ')})` : ''}${t.verdictCaveat ? `, ${caveatClause(t)}` : ''} — ${t.reason}`);
  for (const f of t.findings ?? []) if (f.hop === undefined || !t.hops[f.hop]) out.push(walkFindingText(f));
  out.push(`final:   ${tuple(t.final)}`);
  if (t.egress.nextHop || t.egress.encapDst || t.egress.interface) {
    out.push(`egress:  ${[t.egress.nextHop && `next hop ${t.egress.nextHop}`, t.egress.interface && `interface ${t.egress.interface}`, t.egress.encapDst && `encap to ${t.egress.encapDst}`].filter(Boolean).join(', ')}`);
  }
  const d = t.hops[t.deciding];
  if (d) out.push(`decided by: ${d.rule ? `${d.rule}${d.layer ? ` (${d.layer})` : ''}` : d.at}${d.evidence ? ` at ${d.evidence.file}:${d.evidence.line}` : ''}`);
  for (const c of t.caveats ?? []) out.push(`caveat (${c.kind}): ${c.text}${c.source ? ` [${c.source}]` : ''}`);
}

/** `names:   10.244.1.22  shop/db-0, pod on node lin-1`, one line per address the snapshot names. */
function namesLines(t: WalkResult): string[] {
  return Object.entries(t.names ?? {}).map(([ip, name], i) => `${i ? '         ' : 'names:   '}${ip}  ${name}`);
}

export function formatWalk(t: WalkResult): string {
  const out: string[] = [];
  const f = t.flow;
  out.push(`${t.kind === 'reply' ? 'reply' : 'trace'} ${tuple({ ...f, srcPort: t.hops[0]?.after?.srcPort ?? f.srcPort })}`);
  out.push(...namesLines(t));
  out.push('');
  body(t, out);
  if (t.returnPath && !t.reply) {
    const rp = t.returnPath;
    out.push(`reply:   ${tuple(rp.sent)}  ⇒  arrives as ${tuple(rp.received)}`);
    for (const st of rp.steps) out.push(`         ${st.what} (${st.rule ?? 'hop ' + (st.hop + 1)}${st.evidence ? ` — ${st.evidence.file}:${st.evidence.line}` : ''})`);
    for (const n of rp.notes) out.push(`         ${n}`);
  }
  if (!t.returnPath && !t.reply && t.kind !== 'reply' && t.verdict === 'forwarded' && (t.caveats ?? []).some((c) => c.kind === 'icmp')) out.push('reply:   none comes back (see the ICMP caveat)');
  if (t.reply) {
    out.push('');
    out.push(`reply ${tuple({ ...t.reply.flow })}`);
    out.push(...namesLines(t.reply).filter((l) => !Object.keys(t.names ?? {}).some((ip) => l.includes(` ${ip} `))));
    out.push('');
    body(t.reply, out);
  }
  return out.join('\n') + '\n';
}

export function describePacket(p: Packet): string {
  return `${tuple(p)}${p.encap ? ` in ${p.encap.type} to ${p.encap.dstIp}` : ''}`;
}
