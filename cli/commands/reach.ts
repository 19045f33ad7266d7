// `hnsight reach <bundle> --from IP [--verdict V]... [--max-walks N] [--no-findings] [--json]`: the
// classes of packets from one source over the whole header space of its family (IPv4, or IPv6 for an
// IPv6 source: analysis/reach/v6), each with its outcome.
// `hnsight reach <bundle> [--to IP[:PORT][/PROTO]]... [--verdict V]... [--no-findings] [--json]`: every
// local pod and the host against the named destinations (default: pods, Services, remote pod
// subnets, the node, the outside; on a dual-stack node their IPv6 addresses too, from the sources'
// IPv6 addresses). Both end with the rules that can never match.
// Exit 0, or 1 when a listed class or cell is dropped; 2 on bad usage or unreadable input.
import { UsageError } from '../errors.ts';
import { parseFlags, wholeNumberFlag } from '../args.ts';
import { loadBundle } from '../../services/bundle/load.ts';
import { modelFindings } from '../../analysis/view-models/findings.ts';
import { withPathFindings } from '../../analysis/walk/findings-on-path.ts';
import { walkFlow } from '../../analysis/walk/engine.ts';
import { canonIp, familyOf } from '../../analysis/walk/ip.ts';
import type { Proto } from '../../analysis/walk/types.ts';
import { destinations6, noRoutes6, sources6 } from '../../analysis/reach/v6/sources6.ts';
import { defaultDestinations, defaultSources, formatCells, formatClasses, formatShadow, reachFrom, reachMatrix, shadowedRules, VERDICTS, type Endpoint, type ReachVerdict } from '../../analysis/reach/index.ts';
import { noSourceNote } from '../../analysis/reach/no-source.ts';
import { parseEndpointArg } from './trace.ts';
import { safeJson, safeText } from '../format/safe-text.ts';

/** `IP[:PORT][/PROTO]`: TCP when a port is given without a protocol, a ping (ICMP) without a port. */
export function parseToArg(s: string): Endpoint {
  const other = /\/([A-Za-z]\w*)$/.exec(s.trim());
  if (other && !/^(tcp|udp|icmp)$/i.test(other[1])) throw new UsageError(`--to ${s}: the protocol after / must be tcp, udp or icmp, not "${other[1]}"`);
  const m = /^(.*?)(?:\/(tcp|udp|icmp))?$/i.exec(s.trim())!;
  const to = parseEndpointArg(m[1], '--to');
  const proto = (m[2]?.toLowerCase() ?? (to.port !== undefined ? 'tcp' : 'icmp')) as Proto;
  if (proto === 'icmp' && to.port !== undefined) throw new UsageError(`--to ${s}: ICMP has no port`);
  return { ip: to.ip, proto, ...(to.port !== undefined ? { port: to.port } : {}) };
}

function parseVerdicts(vs: string[]): Set<ReachVerdict> | undefined {
  if (!vs.length) return undefined;
  const out = new Set<ReachVerdict>();
  for (const v of vs) {
    const x = v.toLowerCase() === 'insufficient' ? 'insufficient information' : (v.toLowerCase() as ReachVerdict);
    if (!VERDICTS.includes(x)) throw new UsageError(`--verdict must be one of ${VERDICTS.map((y) => (y === 'insufficient information' ? 'insufficient' : y)).join(', ')}, not "${v}"`);
    out.add(x);
  }
  return out;
}

/** What the matrix cannot say about IPv6 destinations: sources without an IPv6 address, no IPv6 routes. */
function ipv6Notes(model: Parameters<typeof sources6>[0], withV6: number): string[] {
  const out: string[] = [];
  const v4only = defaultSources(model).length - withV6;
  if (!withV6) out.push('insufficient information for the IPv6 destinations: no local pod and not the host has an IPv6 address in this bundle (Get-HnsEndpoint IPv6Address, ipconfig), so no IPv6 packet was walked');
  else if (v4only > 0) out.push(`IPv6 destinations are walked from the ${withV6} sources with an IPv6 address; ${v4only} without one are not listed for them`);
  const silence = noRoutes6(model);
  if (silence) out.push(`insufficient information: ${silence}; an IPv6 destination that leaves the node has no route to read`);
  return out;
}

export async function runReach(argv: string[]): Promise<number> {
  const parsed = parseFlags('reach', argv, {
    from: { type: 'string' },
    to: { type: 'string', multiple: true, default: [] },
    verdict: { type: 'string', multiple: true, default: [] },
    'max-walks': { type: 'string' },
    'no-findings': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
      });
  const v = parsed.values;
  const [bundle, ...extra] = parsed.positionals;
  if (!bundle) throw new UsageError('reach needs a bundle folder, .zip or file');
  if (extra.length) throw new UsageError(`reach takes one bundle, got also: ${extra.join(' ')}`);
  const verdicts = parseVerdicts(v.verdict as string[]);
  const maxWalks = wholeNumberFlag(v['max-walks'], '--max-walks', { min: 1, max: Number.MAX_SAFE_INTEGER });
  let from: string | undefined;
  if (v.from) {
    const f = parseEndpointArg(v.from, '--from');
    if (f.port !== undefined) throw new UsageError('--from takes an address only');
    // IPv6 in its RFC 5952 text, as the classes write their addresses.
    from = canonIp(f.ip) ?? f.ip;
    if ((v.to as string[]).length) throw new UsageError('reach takes either --from (the classes from one source) or --to (the matrix), not both');
  }
  const tos = (v.to as string[]).map(parseToArg);
  const model = await loadBundle(bundle);
  const findings = v['no-findings'] ? undefined : modelFindings(model);
  const shadow = shadowedRules(model);
  const keep = <T extends { verdict: ReachVerdict }>(xs: T[]) => (verdicts ? xs.filter((x) => verdicts.has(x.verdict)) : xs);

  if (from) {
    const r = reachFrom(model, from, { maxWalks });
    // The command that opens the walk of a class's example.
    const traceOf = (c: { example: { dstIp: string; dstPort?: number }; proto: string }) =>
      `hnsight trace ${/\s/.test(bundle) ? JSON.stringify(bundle) : bundle} --from ${from} --to ${c.example.dstPort === undefined ? c.example.dstIp : familyOf(c.example.dstIp) === 6 ? `[${c.example.dstIp}]:${c.example.dstPort}` : `${c.example.dstIp}:${c.example.dstPort}`} --proto ${c.proto} --reply`;
    const classes = keep(r.classes).map(({ key: _key, ...raw }) => {
      const c = { ...raw, trace: traceOf(raw) };
      // The findings on the path of each class's example (a check's finding about what it crosses).
      if (!findings) return { ...c, findings: [], verdictCaveat: null };
      const w = withPathFindings(model, walkFlow(model, { srcIp: from, dstIp: c.example.dstIp, proto: c.proto, ...(c.example.dstPort !== undefined ? { dstPort: c.example.dstPort } : {}) }), findings);
      return { ...c, findings: w.findings ?? [], verdictCaveat: w.verdictCaveat ?? null };
    });
    const notes = [...r.limitations, ...(r.budget.note ? [r.budget.note] : [])];
    if (v.json) process.stdout.write(safeJson({ from, classes, cells: r.cells, walks: r.walks, budget: r.budget, limitations: r.limitations, shadowed: shadow }) + '\n');
    else process.stdout.write(safeText(formatClasses(from, classes, notes) + '\n' + formatShadow(shadow)));
    return classes.some((c) => c.verdict === 'dropped') ? 1 : 0;
  }
  // IPv6 destinations are walked from the sources' IPv6 addresses (a pair of two families is never walked).
  const v6 = sources6(model);
  const dests = tos.length ? tos : [...defaultDestinations(model), ...(v6.length ? destinations6(model) : [])];
  const wants6 = dests.some((d) => familyOf(d.ip) === 6);
  const sources = [...defaultSources(model), ...(wants6 ? v6 : [])];
  // A bundle without IPv6 routes cannot say that an IPv6 packet has none: reachMatrix says so (as reach --from IPv6).
  const cells = keep(reachMatrix(model, dests, { findings, sources }));
  const notes = tos.length ? [] : [`destinations: every local pod (on the ports its Services target, else a ping), every Service port, one address per remote pod subnet, the node and the outside${v6.length ? '; on this dual-stack node their IPv6 addresses too, walked from the IPv6 address of each pod and of the host' : ''}`];
  if (wants6) notes.push(...ipv6Notes(model, v6.length));
  // No source to walk from: say what the input lacks rather than print an empty table (audit of #25, A11).
  const noSource = noSourceNote(model);
  if (noSource) notes.unshift(`${noSource}. Try reach --from IP with a pod address, or a whole bundle`);
  if (v.json) process.stdout.write(safeJson({ cells, shadowed: shadow }) + '\n');
  else process.stdout.write(safeText(formatCells(cells, notes) + '\n' + formatShadow(shadow)));
  return cells.some((c) => c.verdict === 'dropped') ? 1 : 0;
}
