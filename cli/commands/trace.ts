// `hnsight trace <bundle> --from IP --to IP[:PORT] [--proto tcp|udp|icmp] [--dip IP] [--json]`
import { parseArgs } from 'node:util';
import { UsageError } from '../errors.ts';
import { addressProblem, parseAddress } from '../../parsers/net/address.ts';
import { loadBundle } from '../../services/bundle/load.ts';
import { walkFlow } from '../../analysis/walk/engine.ts';
import { formatWalk } from '../../analysis/walk/format.ts';
import type { Flow, Proto, WalkResult } from '../../analysis/walk/types.ts';
import { safeJson, safeText } from '../format/safe-text.ts';

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

export function parseEndpointArg(s: string, what: string): { ip: string; port?: number } {
  const a = s.includes('/') ? undefined : parseAddress(s);
  if (a) return { ip: a.ip, port: a.port };
  const problem = addressProblem(s);
  if (problem?.startsWith('port')) throw new UsageError(`${what}: ${problem}`);
  throw new UsageError(`${what} must be an IPv4 address${what === '--to' ? ', optionally with :PORT' : ''}, not "${s}"`);
}

export async function runTrace(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        from: { type: 'string' },
        to: { type: 'string' },
        proto: { type: 'string', default: 'tcp' },
        dip: { type: 'string' },
        'src-port': { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    });
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  const v = parsed.values;
  const [bundle, ...extra] = parsed.positionals;
  if (!bundle) throw new UsageError('trace needs a bundle folder, .zip or file');
  if (extra.length) throw new UsageError(`trace takes one bundle, got also: ${extra.join(' ')}`);
  if (!v.from || !v.to) throw new UsageError('trace needs --from IP and --to IP[:PORT]');
  const from = parseEndpointArg(v.from, '--from');
  if (from.port !== undefined) throw new UsageError('--from takes an address only (use --src-port for the source port)');
  const to = parseEndpointArg(v.to, '--to');
  const proto = String(v.proto).toLowerCase();
  if (!['tcp', 'udp', 'icmp'].includes(proto)) throw new UsageError(`--proto must be tcp, udp or icmp, not "${v.proto}"`);
  if (v.dip && !IPV4.test(v.dip)) throw new UsageError(`--dip must be an IPv4 address, not "${v.dip}"`);
  let srcPort: number | undefined;
  if (v['src-port'] !== undefined) {
    srcPort = Number(v['src-port']);
    if (!Number.isInteger(srcPort) || srcPort < 1 || srcPort > 65535) throw new UsageError(`--src-port must be 1–65535, not "${v['src-port']}"`);
  }
  const flow: Flow = { srcIp: from.ip, dstIp: to.ip, dstPort: to.port, proto: proto as Proto, srcPort, dip: v.dip };
  const model = await loadBundle(bundle);
  const result = walkFlow(model, flow);
  if (v.json) process.stdout.write(safeJson(traceJson(result)) + '\n');
  else process.stdout.write(safeText(formatWalk(result)));
  return result.verdict === 'dropped' ? 1 : 0;
}

/** The DESIGN.md §3 document, plus the walkthrough's extra fields (notes, inferred, alternatives). */
export function traceJson(t: WalkResult) {
  return {
    verdict: t.verdict,
    reason: t.reason,
    hops: t.hops.map((h) => ({
      at: h.at,
      port: h.port ?? null,
      layer: h.layer ?? null,
      group: h.group ?? null,
      rule: h.rule ?? null,
      ruleType: h.ruleType ?? null,
      action: h.action,
      rewrite: h.rewrite ?? {},
      evidence: h.evidence ? { file: h.evidence.file, line: h.evidence.line } : null,
      kind: h.kind,
      inferred: h.inferred ?? false,
      note: h.note ?? null,
      alternatives: h.alternatives ?? [],
    })),
    final: t.final,
    egress: t.egress,
    deciding: t.deciding,
    return: t.returnPath ?? null,
  };
}
