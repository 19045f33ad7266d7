// The human form of `hnsight fleet`: one line per node as it is read, then the outliers by each
// measure, the findings most nodes share, and the cross-node findings.
import type { FleetNode, FleetSummary } from '../../analysis/cluster/index.ts';
import { formatClusterFinding } from './cluster-text.ts';

const n = (v: number | null, w: number) => (v === null ? '-' : String(v)).padStart(w);
const ms = (v: number | null) => (v === null ? '-' : v >= 10_000 ? `${(v / 1000).toFixed(0)}s` : v >= 1000 ? `${(v / 1000).toFixed(1)}s` : `${Math.round(v)}ms`);

export const FLEET_HEADER = `${'HOST'.padEnd(20)} ${'PLATFORM'.padEnd(24)} ${'BUILD'.padEnd(14)} ${'EP'.padStart(5)} ${'LB'.padStart(6)} ${'RULES'.padStart(8)} ${'ERR'.padStart(4)} ${'WARN'.padStart(4)}  CNI ADD p50/p99`;

export function fleetLine(x: FleetNode): string {
  return `${x.host.padEnd(20)} ${x.platform.slice(0, 24).padEnd(24)} ${(x.windowsBuild ?? '-').padEnd(14)} ${n(x.counts.endpoints, 5)} ${n(x.counts.loadBalancers, 6)} ${n(x.counts.vfpRules, 8)} ${n(x.errors, 4)} ${n(x.warnings, 4)}  ${ms(x.cniAddP50Ms)}/${ms(x.cniAddP99Ms)}`;
}

/** Everything after the node lines (which the command prints as it goes). */
export function formatFleetTail(s: FleetSummary, opts: { verbose: boolean; walkWith?: string }): string {
  const out: string[] = [''];
  out.push(`${s.nodes.length} node${s.nodes.length === 1 ? '' : 's'}${s.failed.length ? `, ${s.failed.length} bundle${s.failed.length === 1 ? '' : 's'} not read: this summary leaves ${s.failed.length === 1 ? 'it' : 'them'} out (exit code 1)` : ''}`);
  for (const f of s.failed) out.push(`  not read: ${f.bundle}: ${f.error}`);
  out.push('');
  out.push(s.outliers.length ? 'outliers:' : 'outliers: none');
  for (const o of s.outliers) out.push(`  ${o.measure} (${o.kind}${o.severity ? `, ${o.severity}` : ''}): ${o.detail}${o.kind === 'finding' || o.kind === 'missing' ? ` — ${o.nodes.slice(0, 8).join(', ')}${o.nodes.length > 8 ? ` and ${o.nodes.length - 8} more` : ''}` : ''}`);
  out.push('');
  // Info findings are listed with --verbose only, but always counted: the text never says "nothing" where the JSON lists some.
  const common = s.common.filter((c) => opts.verbose || c.severity !== 'info');
  const hiddenCommon = s.common.length - common.length;
  const more = (n: number) => (n ? ` (and ${n} info finding${n === 1 ? '' : 's'}: --verbose lists ${n === 1 ? 'it' : 'them'})` : '');
  if (common.length) out.push(`common to most nodes (a cluster-wide setting, not one broken node)${more(hiddenCommon)}:`);
  else out.push(hiddenCommon ? `common to most nodes: no error or warning${more(hiddenCommon)}` : 'common to most nodes: nothing');
  for (const c of common) out.push(`  ${c.severity.padEnd(7)} ${c.id}  on ${c.all ? 'every node' : `${c.nodes} of ${c.of} nodes`}: ${c.title}`);
  const fs = s.consistency.filter((f) => opts.verbose || f.severity !== 'info');
  const hiddenAcross = s.consistency.length - fs.length;
  if (fs.length || hiddenAcross) {
    out.push('');
    out.push(fs.length ? `across nodes (${fs.length})${more(hiddenAcross)}:` : `across nodes: no error or warning${more(hiddenAcross)}`);
    for (const f of fs) formatClusterFinding(f, out, opts.walkWith);
  }
  return out.join('\n') + '\n';
}
