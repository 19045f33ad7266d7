// `hnsight report <bundle> [--trace FROM-TO[:PORT][/PROTO] ...] [--notes notes.json] [--redact] --out FILE`
// `hnsight report <bundleA> <bundleB> … | <folder of bundles> [--trace …] [--redact] --out FILE`: a cluster.
// The format comes from the extension: .html, .md, .json, .pdf (PDF through headless Chromium).
import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors.ts';
import { parseFlags } from '../args.ts';
import { addressProblem, parseFlowSpec } from '../../parsers/net/address.ts';
import { loadBundle } from '../../services/bundle/load.ts';
import path from 'node:path';
import { exportClusterReport, exportReport, formatFromPath } from '../../services/export/export.ts';
import { BundleOpenError } from '../../services/bundle/source.ts';
import { clusterTargets, type FoundBundle } from '../../services/cluster/discover.ts';
import { loadCluster } from '../../services/cluster/load.ts';
import { buildClusterReport, PAGE_SIZES, pageSizeForLocale, type PageSize, type ReportFormat } from '../../analysis/report/index.ts';
import { PdfUnavailable } from '../../services/export/pdf.ts';
import { parseNotes } from '../../services/notes/store.ts';
import type { Flow, Proto } from '../../analysis/walk/types.ts';
import type { Notes } from '../../analysis/report/notes.ts';
import { writeWrapped } from '../format/wrap.ts';
import { safeText } from '../format/safe-text.ts';

/** `10.244.1.5-10.96.0.10:53/udp` → a flow (TCP when no protocol is given). */
export function parseTraceArg(s: string): Flow {
  const f = parseFlowSpec(s);
  if (!f) {
    const [src, dst] = s.trim().split('-', 2);
    const problem = [src, dst].map((x) => (x === undefined ? undefined : addressProblem(x.replace(/\/.*$/, '')))).find((p) => p && p !== 'not an IPv4 address');
    throw new UsageError(problem ? `--trace: ${problem}` : `--trace must be FROM-TO[:PORT][/PROTO] with IPv4 addresses (e.g. 10.244.1.5-10.96.0.10:53/udp), not "${s}"`);
  }
  const proto: Proto = f.proto ?? 'tcp';
  if (proto === 'icmp' && f.dstPort !== undefined) throw new UsageError('--trace: ICMP has no port');
  return { srcIp: f.srcIp, dstIp: f.dstIp, dstPort: f.dstPort, proto };
}

/**
 * `--page a4|letter`: the paper of a PDF or of an HTML report printed from a browser. Without it, the
 * paper of the locale (LC_ALL, LC_PAPER, LANG: US Letter in the Americas' Letter countries, else A4).
 */
export function pageArg(value: string | undefined, format: ReportFormat, env: NodeJS.ProcessEnv = process.env): PageSize {
  if (value === undefined) return pageSizeForLocale(env.LC_ALL || env.LC_PAPER || env.LANG);
  const page = value.toLowerCase();
  if (!(PAGE_SIZES as readonly string[]).includes(page)) throw new UsageError(`--page must be a4 or letter, not "${value}"`);
  if (format !== 'pdf' && format !== 'html') throw new UsageError('--page applies to a .pdf or .html report');
  return page as PageSize;
}

async function clusterReport(bundles: FoundBundle[], location: string, o: { format: ReportFormat; out: string; flows: Flow[]; redact: boolean }): Promise<number> {
  const { cluster, failed } = await loadCluster(bundles);
  for (const f of failed) process.stderr.write(safeText(`hnsight: ${f.bundle} could not be read: ${f.error}\n`));
  if (!cluster.nodes.length) throw new BundleOpenError('none of the bundles could be read');
  const doc = buildClusterReport(cluster, { flows: o.flows, location, redact: o.redact, generatedAt: new Date().toISOString() });
  try {
    const r = await exportClusterReport(doc, o.format, o.out);
    writeWrapped(process.stderr, safeText(`wrote ${r.path} (${o.format}, ${r.bytes} bytes; ${doc.nodes.length} nodes, ${doc.walks.length} walks across nodes)\n`));
    return 0;
  } catch (e) {
    if (e instanceof PdfUnavailable) {
      process.stderr.write(`hnsight: ${safeText(e.message)}\n`);
      return 2;
    }
    throw e;
  }
}

export async function runReport(argv: string[]): Promise<number> {
  const parsed = parseFlags('report', argv, {
    trace: { type: 'string', multiple: true },
    notes: { type: 'string' },
    redact: { type: 'boolean', default: false },
    out: { type: 'string', short: 'o' },
    page: { type: 'string' },
      });
  const v = parsed.values;
  const [bundle] = parsed.positionals;
  if (!bundle) throw new UsageError('report needs a bundle folder, .zip or file');
  if (!v.out) throw new UsageError('report needs --out FILE (.html, .md, .json or .pdf)');
  const format = formatFromPath(v.out);
  if (!format) throw new UsageError(`--out: cannot tell the format of "${v.out}" (use .html, .md, .json or .pdf)`);
  const page = pageArg(v.page, format);
  const flows = (v.trace ?? []).map(parseTraceArg);
  // Several bundles, or a folder of them: the report of the cluster, its walks stitched across nodes.
  const targets = await clusterTargets(parsed.positionals);
  if (targets) {
    if (v.notes) throw new UsageError('--notes belongs to the report of one node; a cluster report takes none');
    return clusterReport(targets.bundles, parsed.positionals.length === 1 ? path.resolve(bundle) : '', { format, out: v.out, flows, redact: !!v.redact });
  }
  if (parsed.positionals.length > 1) throw new UsageError(`report takes one bundle, got also: ${parsed.positionals.slice(1).join(' ')}`);
  let notes: Notes | undefined;
  if (v.notes) {
    let text: string;
    try {
      text = await readFile(v.notes, 'utf8');
    } catch (e) {
      process.stderr.write(safeText(`hnsight: cannot read --notes ${v.notes}: ${(e as NodeJS.ErrnoException).code ?? String(e)}\n`));
      return 2;
    }
    notes = parseNotes(text);
    if (!notes) {
      process.stderr.write(safeText(`hnsight: --notes ${v.notes} is not an hnsight notes file (schema 1; see README "Notes file")\n`));
      return 2;
    }
  }
  const model = await loadBundle(bundle);
  try {
    const r = await exportReport(model, { format, outPath: v.out, flows, notes, redact: v.redact, page, generatedAt: new Date().toISOString() });
    writeWrapped(process.stderr, safeText(`wrote ${r.path} (${format}, ${r.bytes} bytes)\n`));
    return 0;
  } catch (e) {
    if (e instanceof PdfUnavailable) {
      process.stderr.write(`hnsight: ${safeText(e.message)}\n`);
      return 2;
    }
    throw e;
  }
}
