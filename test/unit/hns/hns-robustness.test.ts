import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseEndpointTxt, parseHnsFile, parseNetworkTxt, parsePortPoolAllocsTxt } from '../../../parsers/hns/index.ts';

const HNS = join(__dirname, '../../fixtures/hns');
const fixture = (name: string): string => readFileSync(join(HNS, name), 'utf8');

describe('truncated and missing JSON', () => {
  it('truncated endpoint.txt: complete endpoints from JSON, the cut one salvaged and completed from its table row, the rest from the table', () => {
    const lines = fixture('endpoint-v2.txt').split('\r\n');
    const cut = lines.slice(0, 120).join('\r\n'); // second endpoint (line 107) is cut
    const r = parseEndpointTxt(cut);
    const errors = r.issues.filter((i) => i.severity === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0].line).toBe(120);
    expect(r.value.endpoints.map((e) => [e.ip, e.fromTable ?? false, e.partial ?? false])).toEqual([
      ['10.244.1.21', false, false],
      ['10.244.2.17', false, true],
      ['10.244.3.9', true, false],
    ]);
    // the members before the cut come from the JSON (ID, provider address), the rest from the table row
    expect(r.value.endpoints[1]).toMatchObject({ id: '5ae0f1b2-c3d4-4e5f-a6b7-c8d9e0f1a2b3', providerAddress: '10.123.74.74', isRemote: true, mac: '0E-2A-0A-F4-02-11', state: 1, src: { line: 107 } });
    expect(r.value.endpoints[2]).toMatchObject({ isRemote: true, mac: '0E-2A-0A-F4-03-09', state: 1, src: { line: 6 } });
    expect(errors[0].message).toMatch(/line 107 .*up to line 118 were kept/);
    expect(r.issues.some((i) => i.severity === 'warning' && /1 endpoint object taken from the PowerShell table/.test(i.message))).toBe(true);
  });

  it('network.txt with only the table (JSON missing) yields table networks', () => {
    const text = fixture('network-v2-overlay.txt').split('[')[0];
    const r = parseNetworkTxt(text);
    expect(r.value.networks.map((n) => [n.id, n.type, n.subnets, n.fromTable])).toEqual([
      ['4b064be3-7724-4e14-bf1c-14edeeeaac66', 'nat', [{ prefix: '172.21.16.0/20' }], true],
      ['7f1b3a5c-9d2e-4f60-8a1b-2c3d4e5f6a7b', 'overlay', [{ prefix: '10.244.1.0/24' }], true],
    ]);
  });

  it('empty file and junk file: no objects, no throw, one issue', () => {
    const empty = parseNetworkTxt('');
    expect(empty.value.networks).toEqual([]);
    expect(empty.issues).toEqual([{ file: 'network.txt', line: 0, severity: 'info', message: 'file is empty' }]);
    const junk = parseNetworkTxt('\u0000\u0001garbage ÿþ\n???\n');
    expect(junk.value.networks).toEqual([]);
    expect(junk.issues.map((i) => i.severity)).toEqual(['warning']);
  });

  it('a leading BOM does not disturb the table or the JSON', () => {
    const r = parseNetworkTxt(`\ufeff${fixture('network-v1-l2bridge.txt')}`);
    expect(r.issues).toEqual([]);
    expect(r.value.table?.[0].Name).toBe('cbr0');
    expect(r.value.networks[0].src.line).toBe(7);
  });

  it('hnsportpoolallocs.txt values are passed through with their lines', () => {
    const r = parsePortPoolAllocsTxt('[\r\n    {\r\n        "Start":  1,\r\n        "End":  2\r\n    }\r\n]\r\n');
    expect(r.value).toEqual([{ value: { Start: 1, End: 2 }, line: 2 }]);
  });
});

describe('mutation properties', () => {
  const files = readdirSync(HNS).filter((f) => f.endsWith('.txt'));
  const mutate = fc.oneof(
    fc.nat().map((n) => (t: string) => t.slice(0, n % (t.length + 1))),
    fc.tuple(fc.nat(), fc.nat(4)).map(([n, k]) => (t: string) => {
      const ls = t.split('\n');
      ls.splice(n % ls.length, k);
      return ls.join('\n');
    }),
    fc.nat().map((n) => (t: string) => {
      const ls = t.split('\n');
      const i = n % ls.length;
      ls.splice(i, 0, ls[i]);
      return ls.join('\n');
    }),
    fc.tuple(fc.nat(), fc.string({ unit: 'binary', maxLength: 16 })).map(([n, junk]) => (t: string) => {
      const i = n % (t.length + 1);
      return t.slice(0, i) + junk + t.slice(i);
    }),
    fc.constant((t: string) => t.replace(/\r\n/g, '\n')),
  );

  it('never throws, every object has a source line inside the file', () => {
    fc.assert(
      fc.property(fc.constantFrom(...files), fc.array(mutate, { minLength: 1, maxLength: 3 }), (file, ms) => {
        const text = ms.reduce((t, m) => m(t), fixture(file));
        const r = parseHnsFile(text, file);
        const lineCount = text.split('\n').length;
        const all = [...r.value.networks, ...r.value.endpoints, ...r.value.loadBalancers, ...r.value.namespaces];
        for (const o of all) {
          expect(o.src.line).toBeGreaterThanOrEqual(1);
          expect(o.src.line).toBeLessThanOrEqual(lineCount);
          expect(typeof o.id).toBe('string');
        }
        for (const i of r.issues) expect(i.line).toBeLessThanOrEqual(lineCount);
      }),
      { numRuns: 400 },
    );
  });

  it('never throws on arbitrary JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        parseHnsFile(JSON.stringify(v, null, 4), 'x.txt');
        parseHnsFile(JSON.stringify([v, { ID: 'a', Policies: v, Resources: v, Health: { Extra: v }, IpConfigurations: v, Flags: v }]), 'x.txt');
      }),
      { numRuns: 300 },
    );
  });
});

describe('a file told to expect no particular kind', () => {
  // `expect: 'unknown'` (the HnsKind that means "no expectation") with objects present: the kind with
  // the most objects is the file's kind. It used to look 'unknown' up among the four object kinds,
  // find nothing and throw.
  it('takes the kind of the objects it holds, without throwing', () => {
    const r = parseHnsFile(fixture('endpoint-v2.txt'), 'pasted.txt', { expect: 'unknown' });
    expect(r.value.endpoints.length).toBeGreaterThan(0);
    expect(r.value.kind).toBe('endpoint');
  });
});
