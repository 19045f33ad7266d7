// Product text is for customers: no wording from the project's design notes ("seed", "Example #3",
// the notes' file names) in what a user reads — the findings of every check on every generated plugin
// node (healthy and with each fault), the demos and the hand-written bundles; the walks' words (hop
// notes, reasons, caveats, findings on the path, presets); the report templates; the UI's strings; the
// command's usage and the README.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPlatform } from '../platforms/helpers.ts';
import { build } from '../walk/helpers.ts';
import { FAULTS, PLATFORM_FAULTS, PLATFORMS, type PlatformName } from '../../../tools/gen/index.ts';
import { loadBundle } from '../../../services/bundle/load.ts';
import { modelFindings } from '../../../analysis/view-models/findings.ts';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import { walkPresets } from '../../../analysis/walk/presets.ts';
import { withPathFindings } from '../../../analysis/walk/findings-on-path.ts';
import { formatWalk } from '../../../analysis/walk/format.ts';
import { buildReport, renderHtml, renderMarkdown } from '../../../analysis/report/index.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Wording of the design notes and research files, never of the product. */
const BANNED: [RegExp, string][] = [
  [/\bseeds?\b|\bseed's\b/i, 'the word "seed"'],
  [/\bExample\s*#\s*\d/i, "a design note's example number"],
  // Case-sensitive: other projects' design documents (antrea's docs/design/windows-design.md) are sources we cite.
  [/\bDESIGN\.md/, 'the design notes'],
  [/\bdesign notes?\b/i, 'the design notes'],
  [/platforms\.md|vfp-semantics\.md|formats\.md|\/work\/research|\/work\/shared/i, 'a research file'],
];

function offences(where: string, text: string): string[] {
  const out: string[] = [];
  for (const [re, what] of BANNED) {
    const m = re.exec(text);
    if (m) out.push(`${where}: ${what}: …${text.slice(Math.max(0, m.index - 50), m.index + 60).replace(/\s+/g, ' ')}…`);
  }
  return out;
}

/** Everything a user reads about a node: findings, presets, and the walks with the findings on their path. */
function nodeText(m: NodeModel): string[] {
  const fs = modelFindings(m);
  const texts = fs.flatMap((f) => [f.title, f.explanation, f.fix]);
  const presets = walkPresets(m);
  texts.push(...presets.flatMap((p) => [p.title, p.why]));
  const flows = [...presets.map((p) => p.flow), ...fs.filter((f) => f.trace).map((f) => f.trace!)];
  for (const flow of flows) texts.push(formatWalk(withPathFindings(m, walkFlow(m, flow, { explain: true, reply: true }), fs)));
  return texts;
}

/** Every fault a platform node can carry, tried together first and one by one when the generator refuses a combination. */
function platformModels(p: PlatformName): { name: string; model: NodeModel }[] {
  const out: { name: string; model: NodeModel }[] = [{ name: `${p} healthy`, model: buildPlatform(p).model }];
  const groups = [
    ['exception-list-typo', 'stale-lb-dip', 'blocked-port', 'endpoint-without-vnic', 'wrong-gateway', 'slow-cni-add'],
    ['duplicate-ip', 'missing-remote-subnet-route', 'cni-add-failures', 'stale-backend', 'missing-backend'],
  ];
  expect(new Set(groups.flat())).toEqual(new Set([...FAULTS, ...PLATFORM_FAULTS]));
  for (const g of groups) {
    try {
      out.push({ name: `${p} ${g.join('+')}`, model: buildPlatform(p, { faults: g }).model });
    } catch {
      for (const f of g) {
        try {
          out.push({ name: `${p} ${f}`, model: buildPlatform(p, { faults: [f] }).model });
        } catch {
          // The generator says this plugin cannot carry this fault (no HNS load balancers on Antrea, …).
        }
      }
    }
  }
  return out;
}

function files(dir: string, ext: RegExp): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir)) {
    const p = path.join(dir, e);
    if (statSync(p).isDirectory()) out.push(...files(p, ext));
    else if (ext.test(e)) out.push(p);
  }
  return out;
}

/** Source text without its comments (what a comment says is for engineers, not users). */
const code = (s: string) => s.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:\\])\/\/.*$/gm, '$1');

describe('no design-note wording in the product', () => {
  it('the findings and walks of every generated plugin node, healthy and with each fault', () => {
    const bad: string[] = [];
    let n = 0;
    for (const p of PLATFORMS) {
      for (const { name, model } of platformModels(p)) {
        for (const t of nodeText(model)) bad.push(...offences(name, t));
        n++;
      }
    }
    // The generic node (no plugin) with each of its faults.
    for (const f of [undefined, ...FAULTS]) {
      for (const network of ['l2bridge', 'overlay'] as const) {
        const { model } = build({ network, faults: f ? [f] : [] });
        for (const t of nodeText(model)) bad.push(...offences(`${network} ${f ?? 'healthy'}`, t));
        n++;
      }
    }
    expect(n).toBeGreaterThan(30);
    expect(bad).toEqual([]);
    // About 40 nodes built and every walk of each: some 10 CPU-seconds, but a minute of wall time on
    // the shared two-core machine, where the 60 s default timed it out while it was passing.
  }, 180_000);

  it('the demos and the hand-written bundles, with their reports', async () => {
    const bad: string[] = [];
    const dirs = [
      ...readdirSync(path.join(root, 'assets/demo')).map((d) => path.join(root, 'assets/demo', d)),
      ...['test/fixtures/foreign', 'test/fixtures/foreign-faults'].flatMap((b) => readdirSync(path.join(root, b), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => path.join(root, b, d.name))),
    ];
    for (const d of dirs) {
      const m = await loadBundle(d);
      for (const t of nodeText(m)) bad.push(...offences(path.relative(root, d), t));
      // The report templates around the bundle's own words (its path is the user's, not ours).
      if (!d.includes('assets/demo') && !d.endsWith('overlay-stale-dip-endpoint-without-vnic')) continue;
      const doc = buildReport(m, {});
      doc.node.location = 'bundle';
      bad.push(...offences(`${path.relative(root, d)} report.html`, renderHtml(doc)), ...offences(`${path.relative(root, d)} report.md`, renderMarkdown(doc)));
    }
    expect(dirs.length).toBeGreaterThan(10);
    expect(bad).toEqual([]);
  });

  it('the UI strings, the command line and the README', () => {
    const bad: string[] = [];
    const sources = [...files(path.join(root, 'renderer/src'), /\.(tsx?|css|html)$/), ...files(path.join(root, 'cli'), /\.ts$/), ...files(path.join(root, 'analysis/report'), /\.ts$/)];
    expect(sources.length).toBeGreaterThan(50);
    for (const f of sources) bad.push(...offences(path.relative(root, f), code(readFileSync(f, 'utf8'))));
    for (const doc of ['README.md', 'docs/app.md', 'docs/cli.md']) bad.push(...offences(doc, readFileSync(path.join(root, doc), 'utf8')));
    expect(bad).toEqual([]);
  });

  it('catches the wording it is meant to catch', () => {
    expect(offences('x', "the seed's typo for a /16")).toHaveLength(1);
    expect(offences('x', 'check it runs with --hostname-override (seed Example #3)')).toHaveLength(2);
    expect(offences('x', 'see DESIGN.md §3')).toHaveLength(1);
    expect(offences('x', 'seeded random: seeding the generator')).toEqual([]);
    expect(code('a // seed\nb /* seed */ c "https://x"')).toBe('a \nb  c "https://x"');
  });
});
