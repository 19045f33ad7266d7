// `hnsight trace <bundle> --from IP --to IP[:PORT] [--proto tcp|udp|icmp] [--dip IP] [--reply] [--no-findings] [--json]`
// `hnsight trace <bundleA> <bundleB> … | <folder of bundles> --from … --to …`: the walk across nodes.
// IPv6: `--from fd00::5 --to [fd00::a]:80` (brackets when a port follows).
import { UsageError } from '../errors.ts';
import { oneOfFlag, parseFlags, wholeNumberFlag } from '../args.ts';
import { addressProblem, parseAddress } from '../../parsers/net/address.ts';
import { loadBundle } from '../../services/bundle/load.ts';
import { BundleOpenError } from '../../services/bundle/source.ts';
import { walkFlow } from '../../analysis/walk/engine.ts';
import { formatWalk } from '../../analysis/walk/format.ts';
import { withNames } from '../../analysis/k8s/name-walk.ts';
import { withPathFindings } from '../../analysis/walk/findings-on-path.ts';
import { modelFindings } from '../../analysis/view-models/findings.ts';
import type { Flow, WalkHop, WalkResult } from '../../analysis/walk/types.ts';
import { familyOf } from '../../analysis/walk/ip.ts';
import { clusterTargets, type FoundBundle } from '../../services/cluster/discover.ts';
import { loadCluster } from '../../services/cluster/load.ts';
import { formatStitched, runClusterChecks, walkAcross, withAcrossFindings, type StitchedWalk } from '../../analysis/cluster/index.ts';
import { writeWrapped } from '../format/wrap.ts';
import { safeJson, safeText } from '../format/safe-text.ts';

const isIp = (s: string) => familyOf(s) !== undefined;

export function parseEndpointArg(s: string, what: string): { ip: string; port?: number } {
  const a = s.includes('/') ? undefined : parseAddress(s);
  if (a) return { ip: a.ip, port: a.port };
  const problem = addressProblem(s);
  if (problem?.startsWith('port')) throw new UsageError(`${what}: ${problem}`);
  throw new UsageError(`${what} must be an IPv4 or IPv6 address${what === '--to' ? ', optionally with :PORT (IPv6: [ADDRESS]:PORT)' : ''}, not "${s}"`);
}

export async function runTrace(argv: string[]): Promise<number> {
  const parsed = parseFlags('trace', argv, {
    from: { type: 'string' },
    to: { type: 'string' },
    proto: { type: 'string', default: 'tcp' },
    dip: { type: 'string' },
    'src-port': { type: 'string' },
    json: { type: 'boolean', default: false },
    reply: { type: 'boolean', default: false },
    'no-findings': { type: 'boolean', default: false },
      });
  const v = parsed.values;
  const bundles = parsed.positionals;
  if (!bundles.length) throw new UsageError('trace needs a bundle folder, .zip or file (or several nodes\' bundles, or a folder of them)');
  if (!v.from || !v.to) throw new UsageError('trace needs --from IP and --to IP[:PORT]');
  const from = parseEndpointArg(v.from, '--from');
  if (from.port !== undefined) throw new UsageError('--from takes an address only (use --src-port for the source port)');
  const to = parseEndpointArg(v.to, '--to');
  const proto = oneOfFlag(v.proto, '--proto', ['tcp', 'udp', 'icmp'] as const) ?? 'tcp';
  if (v.dip && !isIp(v.dip)) throw new UsageError(`--dip must be an IP address, not "${v.dip}"`);
  if (familyOf(from.ip) !== familyOf(to.ip)) throw new UsageError('--from and --to must be of the same IP family');
  const srcPort = wholeNumberFlag(v['src-port'], '--src-port', { min: 1, max: 65535 });
  const flow: Flow = { srcIp: from.ip, dstIp: to.ip, dstPort: to.port, proto, srcPort, dip: v.dip };
  // Several bundles, or a folder of them: the walk goes on from node to node.
  const targets = await clusterTargets(bundles);
  if (targets) return traceAcross(targets.bundles, flow, { reply: !!v.reply, json: !!v.json, findings: !v['no-findings'] });
  const [bundle] = bundles;
  const model = await loadBundle(bundle);
  // The checks run once for the bundle; the walk is joined with the findings on its path. They read
  // every pod port's rules, which takes a while on a dump of a million rules: --no-findings skips them.
  const walked = walkFlow(model, flow, { reply: !!v.reply });
  // Addresses the kubectl snapshot knows (a pod of another node, the node behind a provider address) are named.
  const result = withNames(model, v['no-findings'] ? walked : withPathFindings(model, walked, modelFindings(model)));
  if (v.json) process.stdout.write(safeJson(traceJson(result)) + '\n');
  else writeWrapped(process.stdout, safeText(formatWalk(result)));
  return result.verdict === 'dropped' ? 1 : 0;
}

/**
 * The DESIGN.md §3 document, plus the walkthrough's fields (notes, inferred, alternatives, why each rule
 * matched), the verdict's flags (`dependsOnUnmodelled`, `inferred`, `caveats`), the findings on the path
 * with the verdict's caveat, and, with --reply, the reply's own document.
 */
export function traceJson(t: WalkResult): Record<string, unknown> {
  return {
    kind: t.kind ?? 'forward',
    verdict: t.verdict,
    reason: t.reason,
    dependsOnUnmodelled: !!t.dependsOnUnmodelled,
    inferred: !!t.inferred,
    caveats: t.caveats ?? [],
    verdictCaveat: t.verdictCaveat ?? null,
    findings: t.findings ?? [],
    hops: t.hops.map(hopJson),
    final: t.final,
    egress: t.egress,
    deciding: t.deciding,
    return: t.returnPath ?? null,
    ...(t.reply ? { reply: traceJson(t.reply) } : {}),
  };
}

/** One hop of the document (the same fields in a walk across nodes, with the hop's node added). */
export function hopJson(h: Omit<WalkHop, 'kind'> & { kind: string }): Record<string, unknown> {
  return {
    at: h.at,
    port: h.port ?? null,
    direction: h.direction ?? null,
    layer: h.layer ?? null,
    group: h.group ?? null,
    rule: h.rule ?? null,
    ruleType: h.ruleType ?? null,
    priority: h.priority ?? null,
    action: h.action,
    rewrite: h.rewrite ?? {},
    evidence: h.evidence ? { file: h.evidence.file, line: h.evidence.line } : null,
    kind: h.kind,
    inferred: h.inferred ?? false,
    unmodelled: h.unmodelled ?? null,
    ambiguous: h.ambiguous ?? null,
    stateful: h.stateful ?? false,
    flow: h.flow ?? false,
    overridden: h.superseded ?? false,
    note: h.note ?? null,
    alternatives: h.alternatives ?? [],
    matchedBecause: h.matchedBecause ?? null,
  };
}

async function traceAcross(bundles: FoundBundle[], flow: Flow, o: { reply: boolean; json: boolean; findings: boolean }): Promise<number> {
  const { cluster, failed } = await loadCluster(bundles);
  for (const f of failed) process.stderr.write(safeText(`hnsight: ${f.bundle} could not be read: ${f.error}\n`));
  if (!cluster.nodes.length) throw new BundleOpenError('none of the bundles could be read');
  const walked = walkAcross(cluster, flow, { reply: o.reply });
  // As on one node: each node's half meets that node's findings, and the walk the findings across
  // nodes, so the verdict never says delivered while a finding on either node says otherwise.
  const w = o.findings ? withAcrossFindings(cluster, walked, runClusterChecks(cluster), modelFindings) : walked;
  const json = o.json;
  if (json) process.stdout.write(safeJson(stitchedJson(w)) + '\n');
  else writeWrapped(process.stdout, safeText(formatStitched(w)));
  return w.verdict === 'dropped' ? 1 : 0;
}

/** A walk across nodes: the single-node document's fields, each hop with its node, bundle and leg, and the hand-overs. */
export function stitchedJson(w: StitchedWalk): Record<string, unknown> {
  return {
    kind: w.kind,
    verdict: w.verdict,
    reason: w.reason,
    nodes: w.legs.map((l) => ({ node: l.node, bundle: l.bundle, verdict: l.walk.verdict })),
    dependsOnUnmodelled: w.dependsOnUnmodelled,
    inferred: w.inferred,
    caveats: w.caveats,
    verdictCaveat: w.verdictCaveat ?? null,
    findings: w.findings ?? [],
    handovers: w.handovers.map((h) => ({ from: h.from, to: h.to ?? null, via: h.via, address: h.address, resolved: h.resolved, inferred: h.inferred, lost: !!h.lost, note: h.note, packet: h.packet, source: h.source ?? null })),
    hops: w.hops.map((h) => ({ node: h.node, bundle: h.bundle, leg: h.leg, ...hopJson(h) })),
    final: w.final,
    deciding: w.deciding,
    ...(w.reply ? { reply: stitchedJson(w.reply) } : {}),
  };
}
