// The human form of `hnsight inspect DIR --cluster`: the nodes, the joins that did not resolve (and
// why), and the findings across nodes with the odd nodes, the majority and the evidence of each.
import type { ClusterDocument, ClusterFinding } from '../../analysis/cluster/index.ts';

export function formatClusterFinding(f: ClusterFinding, out: string[], walkWith = '<bundles>'): void {
  out.push(`  ${f.severity.toUpperCase().padEnd(7)} ${f.id}  ${f.title}`);
  const odd = f.nodes.odd.length ? `odd: ${f.nodes.odd.join(', ')}` : '';
  const maj = f.nodes.majority.length ? `agree: ${f.nodes.majority.join(', ')}${f.nodes.majorityValue ? ` (${f.nodes.majorityValue})` : ''}` : '';
  if (odd || maj) out.push(`          ${[odd, maj].filter(Boolean).join('   ')}`);
  out.push(`          ${f.explanation}`);
  for (const e of f.evidence) out.push(`          ${e.node}: ${e.file}${e.line ? `:${e.line}` : ''}${e.text ? `  ${e.text}` : ''}`);
  out.push(`          fix: ${f.fix}`);
  if (f.trace) out.push(`          walk it: hnsight trace ${walkWith} --from ${f.trace.srcIp} --to ${f.trace.dstIp}${f.trace.dstPort ? `:${f.trace.dstPort}` : ''} --proto ${f.trace.proto}`);
}

export function formatClusterText(doc: ClusterDocument, opts: { verbose: boolean; walkWith?: string }): string {
  const out: string[] = [];
  const plugins = [...new Set(doc.nodes.map((n) => n.platform))];
  out.push(`cluster: ${doc.nodes.length} node${doc.nodes.length === 1 ? '' : 's'} (${plugins.join(', ') || 'no plugin known'})${doc.clusters.length > 1 ? `, from ${doc.clusters.length} clusters: ${doc.clusters.map((c) => c.join(' + ')).join(' | ')}` : ''}`);
  for (const n of doc.nodes) {
    const addr = [n.nodeIp && `node ${n.nodeIp}`, n.providerAddress && n.providerAddress !== n.nodeIp && `PA ${n.providerAddress}`, n.drMac && `DR MAC ${n.drMac}`, n.podSubnets.length && `pods ${n.podSubnets.map((s) => s.prefix).join(', ')}`, n.k8sNode && n.k8sNode !== n.host && `Node ${n.k8sNode}`].filter(Boolean).join(' · ');
    out.push(`  ${n.id.padEnd(16)} ${addr}`);
    out.push(`  ${''.padEnd(16)} ${n.platform}${n.windowsBuild ? ` · Windows ${n.windowsBuild}` : ''} · ${n.errors} error${n.errors === 1 ? '' : 's'}, ${n.warnings} warning${n.warnings === 1 ? '' : 's'} · ${n.bundle}`);
  }
  for (const d of doc.duplicates) out.push(`  (counted once) ${d.bundle}: a second bundle of ${d.of}`);
  for (const f of doc.failed) out.push(`  (not read) ${f.bundle}: ${f.error}`);
  if (opts.verbose) for (const s of doc.skipped) out.push(`  (skipped) ${s.name}: ${s.reason}`);
  const byKind = new Map<string, number>();
  for (const j of doc.joins) byKind.set(j.kind, (byKind.get(j.kind) ?? 0) + 1);
  out.push('');
  out.push(`joins: ${doc.joins.length} (${[...byKind].map(([k, n]) => `${n} ${k}`).join(', ') || 'none'}), ${doc.unresolved} not resolved`);
  const shown = doc.joins.filter((j) => !j.resolved || opts.verbose);
  for (const j of shown) out.push(`  ${j.resolved ? 'ok ' : 'NOT'} ${j.from} ${j.kind}: ${j.what}${j.to ? ` → ${j.to}` : ''}${j.note ? `  — ${j.note}` : ''}${j.evidence ? `  (${j.evidence.file}:${j.evidence.line})` : ''}`);
  const partial = doc.services.filter((s) => s.nodes.length < doc.nodes.length);
  out.push(`services: ${doc.services.length} load-balanced keys, ${partial.length} not on every node`);
  for (const a of doc.sharedAddresses) out.push(`  address ${a.address} is claimed by ${a.nodes.join(', ')}: it names no node`);
  out.push('');
  const fs = doc.findings.filter((f) => opts.verbose || f.severity !== 'info');
  out.push(fs.length ? `findings across nodes (${fs.length}):` : 'findings across nodes: none');
  for (const f of fs) formatClusterFinding(f, out, opts.walkWith);
  return out.join('\n') + '\n';
}
