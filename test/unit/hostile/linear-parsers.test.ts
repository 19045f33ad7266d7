// Parsers on shapes that made them quadratic, each read in time linear in the input — measured as a
// ratio of this thread's CPU times (test/helpers/thread-cpu.ts), never a wall-clock limit: rows with a long run of blanks inside
// (the fuzz harness's long-line mutation makes them; route print with a lazy column before `\s+…\s*$`:
// 20,000 blanks took 1 s, 80,000 took 25 s), and kubectl JSON whose names are written with escapes.
import { describe, expect, it } from 'vitest';
import { parseRoutePrint } from '../../../parsers/routes/route-print.ts';
import { parseKubectlJson } from '../../../parsers/k8s/kubectl.ts';
import { cleanPaste } from '../../../parsers/text/paste.ts';
import { parseHnsdiag } from '../../../parsers/hnsdiag/index.ts';
import { LINEAR_LIMIT, workRatio } from '../../helpers/thread-cpu.ts';


const HEADER = 'IPv4 Route Table\n===========================================================================\nActive Routes:\nNetwork Destination        Netmask          Gateway       Interface  Metric\n';
const IPV6 = 'IPv6 Route Table\n===========================================================================\nActive Routes:\n If Metric Network Destination      Gateway\n';

describe('route print rows with a run of blanks inside', () => {
  const v4 = (n: number) => `${HEADER}  10.0.0.0  255.0.0.0  Auf${' '.repeat(n)}Verbindung  10.0.0.5  25\n  10.1.0.0  255.0.0.0  x${' '.repeat(n)}y\n`;
  const v6 = (n: number) => `${IPV6}  7    261 fe80::/64${' '.repeat(n)}On-link\n  7    261 fe80::${':'.repeat(n)}g\n`;

  it('still reads the row: the gateway keeps its words, a row that is no route is not taken for one', () => {
    const r = parseRoutePrint(v4(10), 'routes.txt');
    expect(r.value.ipv4Active).toHaveLength(1);
    expect(r.value.ipv4Active[0]).toMatchObject({ destination: '10.0.0.0', gateway: `Auf${' '.repeat(10)}Verbindung`, interface: '10.0.0.5', metric: 25 });
    const r6 = parseRoutePrint(v6(10), 'routes.txt');
    expect(r6.value.ipv6Active.map((x) => [x.destination, x.gateway])).toEqual([['fe80::/64', 'On-link']]);
  });

  it('in time linear in the blanks', () => {
    for (const make of [v4, v6]) {
      const ratio = workRatio(() => parseRoutePrint(make(25_000), 'routes.txt'), () => parseRoutePrint(make(400_000), 'routes.txt'));
      // Eight times the blanks: about eight times the work (quadratic was sixty-four).
      expect(ratio).toBeLessThan(LINEAR_LIMIT);
    }
  });
});

describe('kubectl JSON whose names are written with escapes', () => {
  // `\u0070od-1` is `pod-1`: the item's decoded name is not in the text as written, which made the
  // old search of the rest of the text per item quadratic in the items.
  const list = (n: number) =>
    JSON.stringify({ apiVersion: 'v1', kind: 'List', items: Array.from({ length: n }, (_, i) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `pod-${i}`, namespace: 'default' }, status: { podIP: '10.244.0.1' } })) }, null, 1).replace(/"name": "pod-/g, '"name": "\\u0070od-');

  it('still points each item at its own line', () => {
    const r = parseKubectlJson(list(3), 'pods.json');
    expect(r.value.pods.map((p) => p.name)).toEqual(['pod-0', 'pod-1', 'pod-2']);
    const lines = list(3).split('\n');
    for (const p of r.value.pods) expect(lines.slice(p.src.line - 1, p.src.line + 3).join('\n')).toContain('"kind": "Pod"');
  });

  it('in time linear in the items', () => {
    const small = list(1000);
    const big = list(16_000);
    // Sixteen times the items: about sixteen times the work (quadratic would be 256).
    expect(workRatio(() => parseKubectlJson(small, 'pods.json'), () => parseKubectlJson(big, 'pods.json'))).toBeLessThan(LINEAR_LIMIT);
  });
});

describe('a pasted or saved text whose line holds a long run of blanks before more text', () => {
  // The clean-up of pasted text trimmed trailing blanks with /[ \t]+$/, retried from every blank of
  // the run: a VFP dump with 3.7 million blanks inside one line never finished loading (fuzz case 1017).
  // The line ends in console-width padding (what the clean-up trims; a text it leaves alone otherwise
  // comes back as it was).
  const text = (n: number) => `RULE :\n    Friendly name : EXCEPTIONS_OUTBOUNDNAT${' '.repeat(n)}x${' '.repeat(30)}\n    Priority : 1\n`;

  it('still trims the blanks at the end of the line only', () => {
    const r = cleanPaste(text(5));
    expect(r.text.split('\n')[1].trimStart()).toBe(`Friendly name : EXCEPTIONS_OUTBOUNDNAT${' '.repeat(5)}x`);
  });

  it('in time linear in the blanks', () => {
    expect(workRatio(() => cleanPaste(text(25_000)), () => cleanPaste(text(400_000)))).toBeLessThan(LINEAR_LIMIT);
  });
});

describe('hard-wrapped and deeply quoted pastes', () => {
  // A wrapped hnsdiag listing is rejoined in one pass; quote marks of any depth are taken in one match.
  const wrapped = (n: number) => {
    const row = 'cid-99cd50b7893d79974c5f6edf92cdd4d3b0347b3a991fc93adae095a7f71b2c3d 048cd973-b5db-45a6-9c65-16dec22e871d cbr0';
    const lines = ['Endpoints:', 'Name             ID                                   Virtual Network Name'];
    for (let k = 0; k < n; k++) lines.push(row.slice(0, 80), row.slice(80));
    return lines.join('\n');
  };
  const quoted = (n: number) => `${'> '.repeat(n)}x\n${'>'.repeat(n)}y\n${'> '.repeat(n)}\n`;

  it('in time linear in the rows and in the quote depth', () => {
    expect(workRatio(() => parseHnsdiag(wrapped(1000)), () => parseHnsdiag(wrapped(16_000)))).toBeLessThan(LINEAR_LIMIT);
    expect(workRatio(() => cleanPaste(quoted(25_000)), () => cleanPaste(quoted(400_000)))).toBeLessThan(LINEAR_LIMIT);
  });

  it('the wrapped rows are read whole', () => {
    const r = parseHnsdiag(wrapped(3));
    expect(r.value.endpoints.map((e) => e.id)).toEqual(['048cd973-b5db-45a6-9c65-16dec22e871d']);
    expect(r.issues.some((i) => /3 hnsdiag rows hard-wrapped at 80 columns/.test(i.message))).toBe(true);
  });
});
