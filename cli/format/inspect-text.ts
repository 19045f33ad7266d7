// The human summary of `hnsight inspect`: what node this is, how much of each object it holds,
// which files were read and what in them could not be.
import type { NodeModel } from '../../parsers/model/types.ts';
import { platformName } from '../../analysis/platform/name.ts';
import type { InspectDocument } from '../../analysis/inspect.ts';
import { formatServicesText } from './services-text.ts';
import { sourceRef } from '../../analysis/report/where.ts';
import { formatCapacityText } from './capacity-text.ts';
import { plural } from '../../parsers/text/quantities.ts';
import { kindWords } from '../../parsers/bundle/file-kind.ts';

const LABELS: [keyof InspectDocument['counts'], string][] = [
  ['networks', 'HNS networks'],
  ['endpoints', 'HNS endpoints'],
  ['localEndpoints', '  local'],
  ['remoteEndpoints', '  remote'],
  ['loadBalancers', 'load balancers'],
  ['compartments', 'compartments'],
  ['adapters', 'adapters'],
  ['vfpPorts', 'VFP ports'],
  ['vfpLayers', 'VFP layers'],
  ['vfpRules', 'VFP rules'],
  ['ipv4Routes', 'IPv4 routes'],
];

export function formatInspectText(m: NodeModel, doc: InspectDocument, opts: { verbose: boolean }): string {
  const out: string[] = [];
  const meta = m.meta;
  out.push(`${meta.hostName ?? '(host name unknown)'} — ${m.source.location}${m.source.root ? ` [${m.source.root}]` : ''}`);
  const facts = [
    meta.windowsBuild && `Windows ${meta.windowsBuild}`,
    meta.schemaVersion && `HNS schema v${meta.schemaVersion}`,
    meta.vfpGeneration && `vfpctrl ${meta.vfpGeneration}`,
    meta.collector,
    networkTypes(m),
  ].filter(Boolean);
  if (facts.length) out.push(facts.join(' · '));
  const p = doc.platform;
  out.push(`network plugin: ${platformName(p)} (${p.plugin === 'unknown' ? 'no known plugin named in the bundle' : `${p.confidence} confidence`})${p.podNetwork ? ` · pod network ${p.podNetwork.name}${p.podNetwork.type ? ` (${p.podNetwork.type})` : ''}` : ''}`);
  for (const e of p.evidence.filter((x) => x.file).slice(0, opts.verbose ? undefined : 3)) out.push(`  ${e.file}${e.line ? `:${e.line}` : ''}  ${e.says}`);
  for (const e of p.conflicts.slice(0, opts.verbose ? undefined : 2)) out.push(`  but ${e.file}${e.line ? `:${e.line}` : ''}  ${e.says}`);
  if (p.checks.skipped.length) out.push(`  not run here: ${p.checks.skipped.map((c) => c.title).join(', ')}`);
  if (p.checks.hedged.length) out.push(`  only warnings (not sure of the plugin): ${p.checks.hedged.join(', ')}`);
  out.push('');
  for (const [key, label] of LABELS) {
    const v = doc.counts[key];
    out.push(`  ${label.padEnd(16)} ${v === null ? '— (no source file)' : String(v)}`);
  }
  const used = m.files.filter((f) => f.used);
  const broken = m.files.filter((f) => f.issues.some((i) => i.severity === 'error'));
  const listed = m.files.filter((f) => !f.used);
  const unread = m.files.filter(unrecognised);
  out.push('');
  out.push(`files: ${used.length} read, ${listed.length} listed only${unread.length ? ` (${unread.length} not recognised)` : ''}, ${broken.length} with errors`);
  for (const f of m.files) {
    const errs = f.issues.filter((i) => i.severity === 'error');
    const warns = f.issues.filter((i) => i.severity === 'warning');
    // A file nothing recognised is always shown with its warning (first line, closest kinds): left out,
    // `inspect x.txt` would say nothing about the one file it was given.
    if (!f.used && !opts.verbose && errs.length === 0 && !unrecognised(f)) continue;
    const tag = errs.length ? plural(errs.length, 'error') : warns.length ? plural(warns.length, 'warning') : 'ok';
    // A listed kind in the app's words ("facts read", "collector output"); the others by their short name.
    const kind = f.kind === 'known' ? kindWords(f.kind, f.used) : f.kind;
    out.push(`  ${f.name.padEnd(28)} ${kind.padEnd(10)} ${f.encoding.padEnd(13)} ${tag}${f.note ? ` — ${f.note}` : ''}`);
    if (f.format && f.kind !== 'known' && !unrecognised(f)) {
      const y = Object.entries(f.yields ?? {}).map(([k, v]) => `${v} ${v === 1 ? singular(k) : k}`).join(', ');
      out.push(`      read as ${f.format}${f.confidence !== undefined ? ` (${Math.round(f.confidence * 100)}% sure)` : ''}${y ? `: ${y}` : ''}`);
      if (opts.verbose && f.reason) out.push(`      because ${f.reason}`);
    }
    const shown = opts.verbose ? f.issues : [...errs, ...warns].slice(0, 5);
    for (const i of shown) out.push(`      ${sourceRef(f.name, i.line)} ${i.severity}: ${i.message}`);
    const hidden = (opts.verbose ? 0 : errs.length + warns.length) - shown.length;
    if (hidden > 0) out.push(`      … ${hidden} more (use --verbose or --json)`);
  }
  if (doc.missing.length) {
    out.push('');
    out.push(`not in this bundle: ${doc.missing.map((x) => x.what).join(', ')}`);
    for (const x of doc.missing) out.push(...wrap(`${x.what} (${x.files.join(', ')}): ${x.prevents.join('; ')}`, 2));
  }
  if (m.joins.unmatched.length) {
    out.push('');
    out.push(`joins that failed: ${m.joins.unmatched.length}`);
    for (const u of m.joins.unmatched.slice(0, opts.verbose ? undefined : 10)) out.push(`  ${u.message}${u.src ? ` (${u.src.file}:${u.src.line})` : ''}`);
    if (!opts.verbose && m.joins.unmatched.length > 10) out.push(`  … ${m.joins.unmatched.length - 10} more (use --verbose)`);
  }
  out.push(...formatServicesText(doc, opts, wrap));
  out.push(...formatCapacityText(doc, wrap));
  out.push('');
  const n = (s: string) => doc.findings.filter((f) => f.severity === s).length;
  out.push(doc.findings.length ? `findings: ${plural(n('error'), 'error')}, ${plural(n('warning'), 'warning')}, ${n('info')} info` : 'findings: none');
  for (const f of doc.findings) {
    if (f.severity === 'info' && !opts.verbose) continue;
    out.push('');
    out.push(`  [${f.severity}] ${f.title}  (${f.id})`);
    out.push(...wrap(f.explanation, 6));
    out.push(...wrap(`fix: ${f.fix}`, 6));
    for (const e of f.evidence.slice(0, opts.verbose ? undefined : 4)) out.push(`      ${sourceRef(e.file, e.line)}  ${e.text.length > 160 ? e.text.slice(0, 160) + '…' : e.text}`);
  }
  if (!opts.verbose && n('info')) out.push('', `  (${plural(n('info'), 'info finding')} hidden: use --verbose or --json)`);
  return out.join('\n') + '\n';
}

/** A text file that was not recognised as any output (its warning says what it looked like). */
function unrecognised(f: NodeModel['files'][number]): boolean {
  return f.kind === 'unknown' && f.issues.some((i) => i.severity === 'warning');
}

/** A paragraph as one indented line: the command wraps it to the terminal (cli/format/wrap.ts). */
function wrap(text: string, indent: number): string[] {
  return [' '.repeat(indent) + text.split(/\s+/).filter(Boolean).join(' ')];
}


function networkTypes(m: NodeModel): string | undefined {
  const types = [...new Set((m.networks ?? []).map((n) => n.type).filter((t) => t && t !== 'nat' && t !== 'ics'))];
  return types.length ? `network ${types.join(', ')}` : undefined;
}

/** "remote endpoints" → "remote endpoint", "IP addresses (Get-NetIPAddress)" → "IP address (…)". */
function singular(label: string): string {
  return label.replace(/(\w+)(?=( \(|$))/, (w) => (w.endsWith('sses') ? w.slice(0, -2) : w.endsWith('s') ? w.slice(0, -1) : w));
}
