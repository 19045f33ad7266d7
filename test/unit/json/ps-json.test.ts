import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readPsJson } from '../../../parsers/json/ps-json.ts';
import { LINEAR_LIMIT, workRatio } from '../../helpers/thread-cpu.ts';

const HNS = join(__dirname, '../../fixtures/hns');
const fixture = (name: string): string => readFileSync(join(HNS, name), 'utf8');

describe('readPsJson: locating and splitting', () => {
  it('skips the PowerShell table and returns each array element with its start line', () => {
    const text = fixture('endpoint-v1.txt');
    const r = readPsJson(text, 'endpoint.txt');
    expect(r.issues).toEqual([]);
    expect(r.value.shape).toBe('array');
    expect(r.value.jsonStartLine).toBe(8);
    expect(r.value.prefixText).toContain('IsRemoteEndpoint');
    expect(r.value.elements.map((e) => e.line)).toEqual([9, 110]);
    expect((r.value.elements[1].value as { ID: string }).ID).toBe('FDE52790-A198-4BD8-A389-2B58D970C69B');
    // Line 9 of the file is the element's `{`.
    expect(text.split(/\r?\n/)[8].trim()).toBe('{');
  });

  it('reads a bare object (one pipeline object) and PS 5.1 empty arrays and \\u0027 escapes', () => {
    const text = '{\r\n    "Name":  "o\\u0027brien \\u003cx\\u003e",\r\n    "Policies":  [\r\n\r\n                 ]\r\n}\r\n';
    const r = readPsJson(text, 'x.txt');
    expect(r.issues).toEqual([]);
    expect(r.value.shape).toBe('object');
    expect(r.value.elements).toEqual([{ value: { Name: "o'brien <x>", Policies: [] }, line: 1, endLine: 6 }]);
  });

  it('does not mistake a table cell `{a, b}` at column 0 for JSON', () => {
    const text = 'IpAddress\n---------\n{10.0.0.1, fd00::1}\n\n[\n    {\n        "ID":  "a"\n    }\n]\n';
    const r = readPsJson(text, 'x.txt');
    expect(r.value.jsonStartLine).toBe(5);
    expect(r.value.elements).toHaveLength(1);
  });

  it('gives the same lines for CRLF and LF input', () => {
    const lf = fixture('policy-v2-single.txt');
    const crlf = lf.replace(/\n/g, '\r\n');
    const a = readPsJson(lf, 'a');
    const b = readPsJson(crlf, 'b');
    expect(b.value.elements.map((e) => [e.line, e.endLine])).toEqual(a.value.elements.map((e) => [e.line, e.endLine]));
    expect(b.value.elements[0].value).toEqual(a.value.elements[0].value);
  });

  it('returns nothing and no error for empty text, a table only, or prose', () => {
    for (const t of ['', '\r\n\r\n', 'Name Type Id\n---- ---- --\nnat  NAT  4b06\n', 'hello world\n']) {
      const r = readPsJson(t, 'x');
      expect(r.value.shape).toBe('none');
      expect(r.value.elements).toEqual([]);
      expect(r.issues.filter((i) => i.severity === 'error')).toEqual([]);
    }
  });
});

describe('readPsJson: damaged input', () => {
  it('recovers the complete elements of a truncated array and reports the end line', () => {
    const text = fixture('policy-v2.txt');
    const lines = text.split('\r\n');
    const cut = lines.slice(0, 60).join('\r\n'); // third load balancer starts at line 52
    const r = readPsJson(cut, 'policy.txt');
    // the third one is cut: its complete members are kept and it is marked partial
    expect(r.value.elements.map((e) => [e.line, e.partial ?? false])).toEqual([[2, false], [28, false], [52, true]]);
    expect((r.value.elements[2].value as Record<string, unknown>).ID).toBeDefined();
    expect(r.value.complete).toBe(false);
    const errors = r.issues.filter((i) => i.severity === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0].line).toBe(60);
    expect(errors[0].message).toMatch(/truncated.*line 52/);
  });

  it('reads the seed ELB excerpt (no outer braces, trailing comma) with warnings at the right lines', () => {
    const r = readPsJson(fixture('seed-policy-elb-excerpt.txt'), 'policy.txt');
    expect(r.value.elements).toHaveLength(1);
    const v = r.value.elements[0].value as Record<string, unknown>;
    expect(v.ID).toBe('8792B31E-4AFF-4691-B04B-FEA174029583');
    expect(v.References).toEqual(['/endpoints/4d1d1b8c-c12d-461a-a608-11825b6a9189', '/endpoints/fde5279-a198-4bd8-a389-2b58d970c69b']);
    expect(r.issues.map((i) => [i.severity, i.line])).toEqual([
      ['warning', 1],
      ['warning', 17],
    ]);
    expect(r.issues[1].message).toMatch(/trailing comma/);
  });

  it('repairs the seed kube-DNS object whose last member has a trailing comma', () => {
    const r = readPsJson(fixture('seed-kubedns-lb.txt'), 'policy.txt');
    expect(r.value.elements).toHaveLength(1);
    expect(r.issues).toEqual([{ file: 'policy.txt', line: 25, severity: 'warning', message: 'JSON repaired: trailing comma before }' }]);
  });

  it('skips a garbled element, keeps its neighbours, and names the line', () => {
    const text = ['[', '    {', '        "ID":  "a"', '    },', '    {', '        "ID":  @@junk@@', '    },', '    {', '        "ID":  "c"', '    }', ']'].join('\n');
    const r = readPsJson(text, 'x');
    expect(r.value.elements.map((e) => (e.value as { ID: string }).ID)).toEqual(['a', 'c']);
    const err = r.issues.find((i) => i.severity === 'error');
    expect(err?.line).toBe(6);
  });

  it('resynchronises on the next element when a closing line was lost', () => {
    const text = ['[', '    {', '        "ID":  "a",', '        "P":  {', '                  "k":  1', '    },', '    {', '        "ID":  "c"', '    }', ']'].join('\n');
    const r = readPsJson(text, 'x');
    expect(r.value.elements.map((e) => (e.value as { ID: string }).ID)).toEqual(['c']);
    expect(r.issues.some((i) => i.severity === 'error' && /line 2/.test(i.message))).toBe(true);
  });

  it('reads a stream of column-0 objects between header lines (hnsdiag -d)', () => {
    const text = 'Networks:\n{\n "ID": "n1"\n}\nEndpoints:\n{"ID":"e1"}\n{"ID":"e2"}\n';
    const r = readPsJson(text, 'hnsdiag.txt', { stream: true });
    expect(r.issues).toEqual([]);
    expect(r.value.shape).toBe('stream');
    expect(r.value.elements.map((e) => [e.line, e.endLine])).toEqual([
      [2, 4],
      [6, 6],
      [7, 7],
    ]);
  });

  it('warns about text after the JSON outside stream mode', () => {
    const r = readPsJson('{"ID":"a"}\nPS C:\\k> exit\n', 'x');
    expect(r.value.elements).toHaveLength(1);
    expect(r.issues).toEqual([{ file: 'x', line: 2, severity: 'warning', message: 'text after the JSON value was ignored (1 line from line 2)' }]);
  });

  it('says a closing prompt and text between two values for what they are, at their line', () => {
    const p = readPsJson('{"ID":"a"}\nPS C:\\k>\n', 'x');
    expect(p.issues).toEqual([{ file: 'x', line: 2, severity: 'info', message: 'the PowerShell prompt after the JSON not read' }]);
    // docker-netrestore's output (corpus hns-v1-rest-json-nat-network): a console line between two labelled answers.
    const b = readPsJson('Response: {"ID":"a"}\nnat exists: false\nResponse: {"ID":"b"}\n', 'x');
    expect(b.value.elements.map((e) => e.line)).toEqual([1, 3]);
    expect(b.issues).toEqual([{ file: 'x', line: 2, severity: 'info', message: '1 line of other text between JSON values not read (from line 2)' }]);
  });

  it('flags a raw line break inside a string (a hard wrap) so the caller can rejoin the lines', () => {
    const r = readPsJson('[{"IPAddress":"10\n.244.1.5","ID":"a"}]', 'x');
    expect(r.value.brokenStrings).toBe(1);
    expect(readPsJson('[{"IPAddress":"10.244.1.5"}]', 'x').value.brokenStrings).toBe(0);
  });
});

describe('readPsJson: size and robustness', () => {
  const lb = (i: number): string =>
    JSON.stringify(
      {
        ID: `69ac3ce0-a679-4b4a-a04a-${String(i).padStart(12, '0')}`,
        HostComputeEndpoints: Array.from({ length: 8 }, (_, k) => `c9385412-bdef-49f5-88b0-${String(k).padStart(12, '0')}`),
        SourceVIP: '10.244.1.3',
        FrontendVIPs: [`10.96.${i >> 8}.${i & 255}`],
        PortMappings: [{ Protocol: 6, InternalPort: 8080, ExternalPort: 80, Flags: 0 }],
        Flags: 0,
        SchemaVersion: { Major: 2, Minor: 0 },
      },
      null,
      4,
    )
      .split('\n')
      .map((l) => `    ${l}`)
      .join('\r\n');
  const lbs = (n: number) => `[\r\n${Array.from({ length: n }, (_, i) => lb(i)).join(',\r\n')}\r\n]\r\n`;
  const big = lbs(2000);
  const broken = (text: string) => text.replace(/"SchemaVersion"/g, '"SchemaVersion" ,"x": 1, "y"').replace(/("Minor": 0)/g, '$1,');

  // Work linear in the input: sixteen times the load balancers, about sixteen times this thread's CPU
  // (a quadratic reader would be 256), never a wall-clock limit.
  it('reads 2,000 load balancers, in time linear in their number', () => {
    const r = readPsJson(big, 'policy.txt');
    expect(r.value.elements).toHaveLength(2000);
    expect(r.issues).toEqual([]);
    const small = lbs(125);
    expect(workRatio(() => readPsJson(small, 'policy.txt'), () => readPsJson(big, 'policy.txt'))).toBeLessThan(LINEAR_LIMIT);
  });

  it('stays linear when every element needs the lenient reader', () => {
    const r = readPsJson(broken(big), 'policy.txt');
    expect(r.issues.length).toBeGreaterThan(0);
    expect(r.issues.length).toBeLessThanOrEqual(101);
    const small = broken(lbs(125));
    const large = broken(big);
    expect(workRatio(() => readPsJson(small, 'policy.txt'), () => readPsJson(large, 'policy.txt'))).toBeLessThan(LINEAR_LIMIT);
  });

  const sample = fixture('endpoint-v2.txt');
  const mutate = fc.oneof(
    fc.nat().map((n) => (t: string) => t.slice(0, n % (t.length + 1))),
    fc.tuple(fc.nat(), fc.nat(5)).map(([n, k]) => (t: string) => {
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
    fc.tuple(fc.nat(), fc.string({ unit: 'binary', maxLength: 20 })).map(([n, junk]) => (t: string) => {
      const i = n % (t.length + 1);
      return t.slice(0, i) + junk + t.slice(i);
    }),
    fc.tuple(fc.nat(), fc.constantFrom('{', '}', '[', ']', '"', ',', '\\', '\u0000')).map(([n, ch]) => (t: string) => {
      const i = n % (t.length + 1);
      return t.slice(0, i) + ch + t.slice(i);
    }),
  );

  it('never throws and reports lines within the file under random mutations', () => {
    fc.assert(
      fc.property(fc.array(mutate, { minLength: 1, maxLength: 4 }), fc.boolean(), (ms, stream) => {
        const text = ms.reduce((t, m) => m(t), sample);
        const r = readPsJson(text, 'endpoint.txt', { stream });
        const lineCount = text.split('\n').length;
        for (const i of r.issues) {
          expect(i.line).toBeGreaterThanOrEqual(0);
          expect(i.line).toBeLessThanOrEqual(lineCount);
        }
        for (const e of r.value.elements) expect(e.line).toBeLessThanOrEqual(e.endLine);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (s) => {
        readPsJson(s, 'x');
        readPsJson(`[\n${s}`, 'x');
        readPsJson(`"a": ${s}`, 'x');
        readPsJson(s, 'x', { stream: true });
      }),
      { numRuns: 300 },
    );
  });

  it('survives pathological nesting', () => {
    const deep = `[\n${'['.repeat(100000)}\n`;
    const r = readPsJson(deep, 'x');
    expect(r.value.elements).toEqual([]);
    const deepClosed = `{"a": ${'['.repeat(5000)}${']'.repeat(5000)}, }`;
    expect(() => readPsJson(deepClosed, 'x')).not.toThrow();
  });
});
