import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseHnsdiag } from '../../../parsers/hnsdiag/index.ts';
import { LINEAR_LIMIT, workRatio } from '../../helpers/thread-cpu.ts';

const DIR = join(__dirname, '../../fixtures/hnsdiag');
const fixture = (name: string): string => readFileSync(join(DIR, name), 'utf8');

describe('legacy columnar layout', () => {
  it('seed `hnsdiag list all`: keeps damaged rows and warns about them', () => {
    const r = parseHnsdiag(fixture('seed-list-all.txt'));
    const v = r.value;
    expect(v.layout).toBe('legacy');
    expect(v.networks.map((n) => [n.name, n.id, n.src.line])).toEqual([
      ['nat', '4b064be3-7724-4e14-bf1c-14edeeeaac66', 4],
      ['External', '5cbfe2b8-859e-499b-a267-6d0f2f064bae', 5],
      ['cbr0', 'e838e224-d184-4f51-9516-7a4bc4d2be37', 6],
    ]);
    expect(v.endpoints).toHaveLength(6);
    expect(v.endpoints[1]).toMatchObject({ id: '08c4a68-ec11-461a-b673-59e6bf3aa440', name: 'Ethernet', networkName: 'cbr0', src: { line: 11 } });
    expect(v.endpoints[5]).toMatchObject({ id: '768b4bd1-774c-47e8-904f-91c007a4b183', networkName: 'cbr0' });
    expect(v.namespaces).toEqual([]);
    expect(v.loadBalancers.map((l) => [l.id, l.vips, l.dipEndpointIds.length])).toEqual([
      ['64a4e0c5-3ca0-4b30-806f-d676822feae0', ['10.104.193.123'], 2],
      ['ca1a6993-2c7b-4b0c-ae09-656960eed143', ['10.96.0.1'], 1],
      ['643f8c94-e77a-4883-9c8f-b7675a0a0a04', ['10.96.0.10'], 2],
      ['93f5a7ce141c-485f-a95c-0640d3dad04b', [], 2],
    ]);
    // Damaged rows are warnings; what is only unusual (an LB without VIP, remote endpoints known by
    // their name) is said as information.
    expect(r.issues.filter((i) => i.severity === 'warning').map((i) => i.line)).toEqual([11, 12, 23, 24, 25]);
    expect(r.issues.filter((i) => i.severity === 'info').map((i) => [i.line, /no virtual IP|named "Ethernet"/.exec(i.message)?.[0]])).toEqual([
      [25, 'no virtual IP'],
      [11, 'named "Ethernet"'],
    ]);
    expect(v.endpoints.filter((e) => e.remoteInferred).map((e) => e.src.line)).toEqual(v.endpoints.filter((e) => e.name === 'Ethernet').map((e) => e.src.line));
  });

  it('seed `hnsdiag list loadbalancers` (no section line, dashed separator)', () => {
    const r = parseHnsdiag(fixture('seed-list-loadbalancers.txt'));
    expect(r.value.layout).toBe('legacy');
    expect(r.value.loadBalancers.map((l) => [l.id, l.vips.join(','), l.dipEndpointIds.length, l.src.line])).toEqual([
      ['69ac3ce0-a679-4b4a-a04a-b4e3c761710a', '10.96.0.1', 1, 4],
      ['c6308ecf-4ae7-49d1-965e-3ec3e15c7f58', '10.96.0.10', 2, 5],
      ['46ca1595-d012-4198-bf84-f4a00266dea', '10.96.0.10', 2, 6],
      ['8792b31e-c14f-4691-80b0-4c3174029583', '10.102.220.146', 2, 7],
    ]);
    expect(r.issues.filter((i) => /not a well-formed GUID/.test(i.message)).map((i) => i.line)).toEqual([5, 6, 6, 7]);
  });

  it('`|`-separated columns (Kubecluster.md excerpt)', () => {
    const r = parseHnsdiag(fixture('reference-kubecluster-legacy.txt'));
    expect(r.issues.map((i) => [i.severity, i.line])).toEqual([['info', 3]]);
    expect(r.value.endpoints).toEqual([{ id: '11796e63-07b3-4199-91d5-9bc25108fb41', name: 'Ethernet', networkName: 'vxlan0', remoteInferred: expect.stringMatching(/kube-proxy/), src: { file: 'hnsdiag.txt', line: 3 } }]);
    expect(r.value.loadBalancers).toEqual([{ id: '326f84d7-35ec-4355-a60a-e82e2b05ec24', vips: ['10.96.0.1'], dipEndpointIds: ['ba06178e-11e9-4ba3-931d-7c2989b51dd7'], src: { file: 'hnsdiag.txt', line: 10 } }]);
  });

  it('CRLF input gives the same result', () => {
    const lf = parseHnsdiag(fixture('seed-list-all.txt'));
    const crlf = parseHnsdiag(fixture('seed-list-all.txt').replace(/\n/g, '\r\n'));
    expect(crlf.value).toEqual(lf.value);
  });
});

describe('rows hard-wrapped at a console width', () => {
  const listAll = [
    'Endpoints:',
    'Name             ID                                   Virtual Network Name',
    'cbr0_ep          8c956a28-97db-40a5-abf0-f101af879b0d cbr0',
    'cid-99cd50b7893d79974c5f6edf92cdd4d3b0347b3a991fc93adae095a7f71b2c3d 048cd973-b5db-45a6-9c65-16dec22e871d cbr0',
    '',
    'LoadBalancers:',
    'ID                                   | Virtual IPs      | Direct IP IDs',
    '64a4e0c5-3ca0-4b30-806f-d676822feae0 |  10.96.0.10      | 048cd973-b5db-45a6-9c65-16dec22e871d 8c956a28-97db-40a5-abf0-f101af879b0d',
  ];
  const cut = (w: number): string => listAll.flatMap((l) => (l.length <= w ? [l] : Array.from({ length: Math.ceil(l.length / w) }, (_, k) => l.slice(k * w, k * w + w)))).join('\n');

  it.each([60, 64, 72, 80, 100])('at %i columns the rows (and the header) are read whole, on their first line', (w) => {
    const text = cut(w);
    const lineOf = (start: string): number => text.split('\n').findIndex((l) => l.startsWith(start)) + 1;
    const r = parseHnsdiag(text);
    expect(r.value.endpoints.map((e) => [e.name, e.id, e.networkName, e.src.line])).toEqual([
      ['cbr0_ep', '8c956a28-97db-40a5-abf0-f101af879b0d', 'cbr0', lineOf('cbr0_ep')],
      ['cid-99cd50b7893d79974c5f6edf92cdd4d3b0347b3a991fc93adae095a7f71b2c3d', '048cd973-b5db-45a6-9c65-16dec22e871d', 'cbr0', lineOf('cid-')],
    ]);
    expect(r.value.loadBalancers.map((l) => [l.vips, l.dipEndpointIds.length])).toEqual([[['10.96.0.10'], 2]]);
    expect(r.issues.filter((i) => i.severity !== 'info')).toEqual([]);
    expect(r.issues.some((i) => i.message.includes(`hard-wrapped at ${w} columns`))).toBe(true);
  });

  it('two whole rows that happen to reach the widest length are not joined', () => {
    const rows = ['Name             ID                                   Virtual Network Name', `${'a'.repeat(38)} 8c956a28-97db-40a5-abf0-f101af879b0d cbr0`, `${'b'.repeat(38)} 048cd973-b5db-45a6-9c65-16dec22e871d cbr0`];
    const r = parseHnsdiag(['Endpoints:', ...rows].join('\n'));
    expect(r.value.endpoints.map((e) => e.name)).toEqual(['a'.repeat(38), 'b'.repeat(38)]);
    expect(r.issues.some((i) => /hard-wrapped/.test(i.message))).toBe(false);
  });
});

describe('per-object blocks', () => {
  it('rke2windows block (reference §5.4)', () => {
    const r = parseHnsdiag(fixture('reference-blocks-endpoint.txt'), 'hnsdiag-endpoints.txt');
    expect(r.issues).toEqual([]);
    expect(r.value.layout).toBe('blocks');
    expect(r.value.endpoints).toEqual([
      { id: 'c9385412-bdef-49f5-88b0-c9d484ef6716', name: '4a625a2b10a33b0dea96fe8743fb8e13504481ee9f481d179f8e75b8c98611d2_Calico', ip: '10.42.213.221', src: { file: 'hnsdiag-endpoints.txt', line: 1 } },
    ]);
  });

  it('blocks whose indentation was lost, other object kinds, unknown keys kept', () => {
    const text = ['Network          : 7F1B3A5C-9D2E-4F60-8A1B-2C3D4E5F6A7B', 'Name             : vxlan0', 'Type             : Overlay', 'Flags            : 0', '', 'LoadBalancer     : 69ac3ce0-a679-4b4a-a04a-b4e3c761710a', '    Virtual IPs      : 10.96.0.1', '    Direct IP IDs    : c9385412-bdef-49f5-88b0-c9d484ef6716'].join('\r\n');
    const r = parseHnsdiag(text);
    expect(r.value.networks).toEqual([{ id: '7f1b3a5c-9d2e-4f60-8a1b-2c3d4e5f6a7b', name: 'vxlan0', type: 'overlay', extra: { Flags: '0' }, src: { file: 'hnsdiag.txt', line: 1 } }]);
    expect(r.value.loadBalancers).toEqual([{ id: '69ac3ce0-a679-4b4a-a04a-b4e3c761710a', vips: ['10.96.0.1'], dipEndpointIds: ['c9385412-bdef-49f5-88b0-c9d484ef6716'], src: { file: 'hnsdiag.txt', line: 6 } }]);
  });
});

describe('-d JSON', () => {
  it('rows and column-0 JSON objects in one file', () => {
    const r = parseHnsdiag(fixture('synthetic-list-all-d.txt'));
    expect(r.issues).toEqual([]);
    const v = r.value;
    expect(v.layout).toBe('mixed');
    expect(v.jsonObjects.map((o) => [o.kind, o.line])).toEqual([
      ['network', 4],
      ['endpoint', 26],
      ['endpoint', 27],
      ['namespace', 32],
      ['loadbalancer', 37],
      ['loadbalancer', 38],
    ]);
    const remote = v.jsonObjects[2];
    expect(remote.kind === 'endpoint' && remote.value).toMatchObject({ isRemote: true, providerAddress: '10.123.74.74', ip: '10.244.2.17' });
    // Objects only present as JSON join the summaries, pointing at their JSON line.
    expect(v.endpoints.map((e) => [e.id, e.src.line])).toEqual([
      ['c9385412-bdef-49f5-88b0-c9d484ef6716', 25],
      ['5ae0f1b2-c3d4-4e5f-a6b7-c8d9e0f1a2b3', 27],
    ]);
    expect(v.loadBalancers.map((l) => [l.id, l.vips])).toEqual([
      ['69ac3ce0-a679-4b4a-a04a-b4e3c761710a', ['10.96.0.1']],
      ['d1e2f3a4-b5c6-4d7e-8f9a-0b1c2d3e4f5a', ['10.96.0.99']],
    ]);
    expect(v.namespaces[0].endpointIds).toEqual(['c9385412-bdef-49f5-88b0-c9d484ef6716']);
  });

  it('JSON-only output', () => {
    const r = parseHnsdiag('{"ID":"A","FrontendVIPs":["10.96.0.1"]}\r\n{"ID":"B","IpConfigurations":[{"IpAddress":"10.0.0.2"}]}\r\n');
    expect(r.value.layout).toBe('json');
    expect(r.value.jsonObjects.map((o) => o.kind)).toEqual(['loadbalancer', 'endpoint']);
  });

  it('truncated JSON in the middle of sections: error at the right line, later rows still read', () => {
    const lines = fixture('synthetic-list-all-d.txt').split('\n');
    lines.splice(20, 1); // lose the network object's closing brace (object starts line 4)
    const r = parseHnsdiag(lines.join('\n'));
    const errors = r.issues.filter((i) => i.severity === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0].message).toMatch(/starting at line 4 .*skipped to line 25/);
    expect(r.value.jsonObjects.map((o) => o.line)).toEqual([25, 26, 31, 36, 37]);
    expect(r.value.networks.map((n) => n.id)).toEqual(['7f1b3a5c-9d2e-4f60-8a1b-2c3d4e5f6a7b']);
    expect(r.value.loadBalancers.length).toBe(2);
    expect(r.value.endpoints.length).toBe(2);
  });
});

describe('robustness', () => {
  it('empty, junk and unrelated files', () => {
    expect(parseHnsdiag('').value.layout).toBe('empty');
    expect(parseHnsdiag('').issues).toEqual([{ file: 'hnsdiag.txt', line: 0, severity: 'info', message: 'file is empty' }]);
    const junk = parseHnsdiag('\u0000\u0007 binary ÿþ junk\r\nmore junk\r\n');
    expect(junk.value.layout).toBe('empty');
    expect(junk.issues[0].severity).toBe('warning');
  });

  const files = readdirSync(DIR).filter((f) => f.endsWith('.txt'));
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
  );

  it('random mutations never throw; lines stay inside the file', () => {
    fc.assert(
      fc.property(fc.constantFrom(...files), fc.array(mutate, { minLength: 1, maxLength: 3 }), (file, ms) => {
        const text = ms.reduce((t, m) => m(t), fixture(file));
        const r = parseHnsdiag(text, file);
        const lineCount = text.split('\n').length;
        for (const i of r.issues) expect(i.line).toBeLessThanOrEqual(lineCount);
        for (const e of [...r.value.networks, ...r.value.endpoints, ...r.value.loadBalancers, ...r.value.namespaces]) {
          expect(e.src.line).toBeGreaterThanOrEqual(1);
          expect(e.src.line).toBeLessThanOrEqual(lineCount);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('large legacy output is read in time linear in its rows', () => {
    const table = (n: number) => {
      const rows = Array.from({ length: n }, (_, i) => `${String(i).padStart(8, '0')}-aaaa-4bbb-8ccc-000000000000 |  10.96.${i >> 8}.${i & 255}  | ${String(i).padStart(8, '0')}-dddd-4eee-8fff-000000000000`);
      return `LoadBalancers:\r\nID | Virtual IPs | Direct IP IDs\r\n${rows.join('\r\n')}\r\n`;
    };
    const text = table(20000);
    expect(parseHnsdiag(text).value.loadBalancers).toHaveLength(20000);
    // Sixteen times the rows, about sixteen times this thread's CPU (quadratic would be 256).
    const small = table(1250);
    expect(workRatio(() => parseHnsdiag(small), () => parseHnsdiag(text))).toBeLessThan(LINEAR_LIMIT);
  });
});
