// Redaction: no original address, MAC, GUID or host name of the bundle survives in any export, and
// the same original always maps to the same placeholder.
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { loadBundle } from '../../../services/bundle/load.ts';
import { buildReport, renderHtml, renderMarkdown } from '../../../analysis/report/index.ts';
import { Redactor, isMeaninglessIp, redactorSeed } from '../../../analysis/redact/index.ts';
import { parseNotes } from '../../../services/notes/store.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';

const root = path.resolve(__dirname, '../../..');
const IPV4 = /(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)[._]){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?!\d|\.\d)/g;
const GUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const MAC = /(?<![0-9a-f])(?:[0-9a-f]{2}[-:]){5}[0-9a-f]{2}(?![0-9a-f])/gi;

/** Every identifying value the unredacted outputs and the model show. */
function originals(m: NodeModel, texts: string[]): { ips: Set<string>; guids: Set<string>; macs: Set<string>; hosts: Set<string> } {
  const seed = redactorSeed(m);
  const all = texts.join('\n');
  const ips = new Set([...(seed.ips ?? []), ...(all.match(IPV4) ?? []).map((x) => x.replace(/_/g, '.'))].filter((ip) => !isMeaninglessIp(ip)));
  const guids = new Set([...(seed.guids ?? []), ...(all.match(GUID) ?? [])].map((g) => g.toLowerCase()));
  const macs = new Set([...(seed.macs ?? []), ...(all.match(MAC) ?? [])].map((x) => x.toUpperCase().replace(/:/g, '-')));
  return { ips, guids, macs, hosts: new Set([...(seed.hostnames ?? [])].map((h) => h.toLowerCase())) };
}

function leaks(text: string, o: ReturnType<typeof originals>): string[] {
  const out: string[] = [];
  const lower = text.toLowerCase();
  const upper = text.toUpperCase();
  for (const ip of o.ips) {
    for (const form of [ip, ip.replace(/\./g, '_')]) {
      const re = new RegExp(`(?<![\\d])${form.replace(/\./g, '\\.')}(?![\\d])`);
      if (re.test(text)) out.push(`ip ${form}`);
    }
  }
  for (const g of o.guids) {
    if (lower.includes(g)) out.push(`guid ${g}`);
    if (new RegExp(`(?<![0-9a-f])${g.slice(0, 8)}…`).test(lower)) out.push(`short guid ${g.slice(0, 8)}`);
  }
  for (const m of o.macs) if (upper.includes(m) || upper.includes(m.replace(/-/g, ':')) || upper.includes(m.replace(/-/g, ''))) out.push(`mac ${m}`);
  for (const h of o.hosts) if (lower.includes(h)) out.push(`host ${h}`);
  return out;
}

describe('redacted reports of the demo bundles', () => {
  for (const name of ['l2bridge-node', 'overlay-node']) {
    let m: NodeModel;
    beforeAll(async () => {
      m = await loadBundle(path.join(root, 'assets/demo', name));
    });

    it(`${name}: HTML, Markdown and JSON keep no original address, MAC, GUID or host name`, () => {
      const notes = name === 'l2bridge-node' ? parseNotes(readFileSync(path.join(root, 'test/fixtures/report/l2bridge-notes.json'), 'utf8')) : undefined;
      const plain = buildReport(m, { notes, generatedAt: '2024-01-01T00:00:00Z' });
      const o = originals(m, [JSON.stringify(plain), renderHtml(plain), renderMarkdown(plain)]);
      expect(o.ips.size).toBeGreaterThan(10);
      expect(o.guids.size).toBeGreaterThan(10);
      expect(o.macs.size).toBeGreaterThan(5);
      expect(o.hosts.size).toBeGreaterThan(0);
      const red = buildReport(m, { notes, redact: true, generatedAt: '2024-01-01T00:00:00Z' });
      expect(red.redacted).toBe(true);
      expect(red.node.location).toBe('(redacted)');
      for (const [what, text] of [['json', JSON.stringify(red)], ['html', renderHtml(red)], ['md', renderMarkdown(red)]] as const) {
        expect(leaks(text, o), what).toEqual([]);
      }
      // Still a readable report: the same walks, with placeholders where the addresses were.
      expect(red.traces.length).toBe(plain.traces.length);
      expect(red.traces[0].title).toMatch(/\[ip-\d+\]/);
    });

    it(`${name}: one original, one placeholder, everywhere`, () => {
      const red = buildReport(m, { redact: true });
      const plain = buildReport(m, {});
      // The walk's source address is the same placeholder in its title, its hops and its final packet.
      const ph = red.traces[0].flow.srcIp;
      expect(ph).toMatch(/^\[ip-\d+\]$/);
      // (the default walks that start at the same pod; host → pod and outside → NodePort start elsewhere)
      red.traces.forEach((t, i) => {
        if (plain.traces[i].flow.srcIp === plain.traces[0].flow.srcIp) expect(t.flow.srcIp).toBe(ph);
        else expect(t.flow.srcIp).not.toBe(ph);
      });
      expect(red.traces[0].final.srcIp === ph || plain.traces[0].final.srcIp !== plain.traces[0].flow.srcIp).toBe(true);
    });
  }
});

describe('Redactor properties', () => {
  const octet = fc.integer({ min: 0, max: 255 });
  const ip = fc.tuple(fc.integer({ min: 1, max: 223 }).filter((x) => x !== 127), octet, octet, fc.integer({ min: 1, max: 254 })).map((p) => p.join('.'));
  const hex = (n: number) => fc.stringMatching(new RegExp(`^[0-9a-f]{${n}}$`));
  const guid = fc.tuple(hex(8), hex(4), hex(4), hex(4), hex(12)).map((p) => p.join('-'));
  const mac = fc.array(hex(2), { minLength: 6, maxLength: 6 }).map((p) => p.join('-').toUpperCase());
  const filler = fc.constantFrom(' ', ', ', ' → ', '_', ' RULE : LB_DSR_', '/24 ', '\n', ' port ', ':53 ');

  it('replaces every address, GUID and MAC and maps equal originals to equal placeholders', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(ip, guid, mac), { minLength: 1, maxLength: 12 }), fc.array(filler, { minLength: 12, maxLength: 12 }), (values, glue) => {
        const r = new Redactor();
        const text = values.map((v, i) => `${glue[i]}${v}`).join('');
        const again = values.map((v, i) => `${glue[(i + 5) % glue.length]}${v}`).join('');
        const a = r.redact(text);
        const b = r.redact(again);
        for (const v of values) {
          if (/^\d/.test(v) && isMeaninglessIp(v)) continue;
          expect(a.toLowerCase()).not.toContain(v.toLowerCase());
          expect(b.toLowerCase()).not.toContain(v.toLowerCase());
          const one = r.redact(v);
          expect(r.redact(v)).toBe(one);
          expect(a).toContain(one);
          expect(b).toContain(one);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('finds known addresses glued into VFP rule names and underscored forms', () => {
    const r = new Redactor({ ips: ['10.240.0.19'] });
    const out = r.redact('EXCEPTIONS_OUTBOUNDNAT_FD046_10.240.0.1910.244.0.0 and LB_10_96_0_10_53 and 10.240.0.19');
    expect(out).not.toMatch(/10\.240\.0\.19|10\.244\.0\.0|10_96_0_10/);
    const node = r.redact('10.240.0.19');
    expect(out.split(node).length - 1).toBe(2);
  });

  it('keeps netmasks, 0.0.0.0 and version numbers', () => {
    const r = new Redactor();
    expect(r.redact('0.0.0.0 255.255.255.0 127.0.0.1 build 10.0.20348.2340')).toBe('0.0.0.0 255.255.255.0 127.0.0.1 build 10.0.20348.2340');
  });
});
