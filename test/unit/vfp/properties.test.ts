// Property tests: random mutations never throw or hang, and the byte scanner's counts always equal
// the detailed parser's (the contract that lets the UI trust index counts before materializing).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countVfpPolicy } from '../../../parsers/vfp/count.ts';
import { parseVfpOutputPortTable } from '../../../parsers/vfp/port-table.ts';
import { parseVfpRuleText } from '../../../parsers/vfp/policy-text.ts';
import { materializeVfpPort, scanVfpOutput } from '../../../parsers/vfp/scan.ts';
import { parseVmSwitchPorts } from '../../../parsers/vfp/switch-ports.ts';
import { detailedCounts, fixture, scannedCounts } from './fixture.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();

const FIXTURES = ['vfpOutput-two-ports.txt', 'filtered-layer-group.txt', 'seed-lbnat.txt', 'seed-l2-rewrite.txt', 'ports-two-ports.txt'];

/** Lines that exercise every branch: keywords in odd spellings, boundaries, sub-blocks, junk. */
const LINE = fc.oneof(
  fc.constantFrom(
    'LAYER : L1', '  GROUP : G1', '    RULE : R1', 'RULE :', 'RULES : 4', 'RULE', 'GROUP G', 'LAYER-x : y', 'RULE\t:\t', 'LAYER:x', 'LAYERS : no', 'layer : lower', ' RULE : \r',
    'Policy for port : ', 'Policy for port : ABC', 'POLICY FOR PORT:', 'Policy for port', 'ABC-DEF-123', '  GUID-1  ',
    'Blocked : TRUE', '  blocked: false', 'Blocked : maybe', 'Enabled : TRUE',
    'Priority : 5', 'Priority : x', 'Flags : 8195 terminating stateful ', 'Flags : 0x9 Default Allow , Update', 'Type : allow',
    'Conditions:', '<none>', 'Source IP : 10.0.0.1', 'Destination IP : 10_244_3_0-10_244_3_255', 'Protocols : 6,17',
    'Flow TTL: 240', 'Flow TTL : 0', 'Rule Data:', 'Decrementing TTL', 'Count of DIP Ranges: 2', 'DIP Range(s) :',
    '{ 1.2.3.4 : 80 }', '{ fdf5::13f : 53 }', '{ broken', 'Encap Destination(s):', '{ IP address=1.2.3.4, GRE key=4096 }',
    'Transposition:', 'Modify:', 'Source MAC: 00-11-22-33-44-55', 'FlagsEx : 0', 'Matched packets : 3',
    'Command list-rule succeeded!', 'Command get-rule-counter succeeded!', ' ITEM LIST', '===========',
    'PS C:\\> vfpctrl /port X /layer Y /group Z /list-rule', 'admin @ NODE:', 'ERROR: nope',
    'Port name  Mac Address  PortId', '---------  -----------  ------', 'Port name : P1', 'Get-port-counter for port:  P1',
    'Direction - IN', 'Total packets : 5', '', '   ', '\r', '\t\r',
  ),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

const TEXT = fc.tuple(fc.array(LINE, { maxLength: 60 }), fc.constantFrom('\n', '\r\n')).map(([ls, eol]) => ls.join(eol));

function expectAgree(bytes: Uint8Array): void {
  const text = dec.decode(bytes);
  expect(scannedCounts(bytes)).toEqual(detailedCounts(text));
  const idx = scanVfpOutput(bytes, 'f').value;
  idx.ports.forEach((p, i) => {
    const m = materializeVfpPort(bytes, idx, i);
    expect(countVfpPolicy(m.value)).toEqual({ layers: p.layers, groups: p.groups, rules: p.rules });
    for (const issue of m.issues) expect(issue.line).toBeGreaterThanOrEqual(0);
  });
}

function noThrowAll(text: string): void {
  const bytes = enc.encode(text);
  expect(() => parseVfpRuleText(text, 'f')).not.toThrow();
  expect(() => parseVmSwitchPorts(text, 'f')).not.toThrow();
  expect(() => parseVfpOutputPortTable(text, 'f')).not.toThrow();
  expect(() => scanVfpOutput(bytes, 'f')).not.toThrow();
  for (const r of [parseVfpRuleText(text, 'f'), parseVmSwitchPorts(text, 'f'), scanVfpOutput(bytes, 'f')]) {
    for (const i of r.issues) {
      expect(i.file).toBe('f');
      expect(Number.isInteger(i.line)).toBe(true);
    }
  }
}

describe('random line soup', () => {
  it('scanner counts == detailed counts, materialize agrees, nothing throws', () => {
    fc.assert(
      fc.property(TEXT, (text) => {
        noThrowAll(text);
        expectAgree(enc.encode(text));
      }),
      { numRuns: 400 },
    );
  });
});

describe('mutations of real fixtures', () => {
  const mutation = fc.record({
    name: fc.constantFrom(...FIXTURES),
    kind: fc.constantFrom('truncate', 'delete', 'duplicate', 'junk', 'flatten-some'),
    a: fc.nat(),
    b: fc.nat(),
    junk: fc.uint8Array({ minLength: 1, maxLength: 16 }),
  });
  it('truncate / delete / duplicate lines / inject junk bytes: no throw, counts agree', () => {
    fc.assert(
      fc.property(mutation, ({ name, kind, a, b, junk }) => {
        const src = enc.encode(fixture(name));
        let bytes: Uint8Array;
        const lines = fixture(name).split('\n');
        if (kind === 'truncate') bytes = src.subarray(0, a % (src.length + 1));
        else if (kind === 'junk') {
          const at = a % (src.length + 1);
          bytes = new Uint8Array(src.length + junk.length);
          bytes.set(src.subarray(0, at));
          bytes.set(junk, at);
          bytes.set(src.subarray(at), at + junk.length);
        } else {
          const i = a % lines.length;
          const n = 1 + (b % 5);
          const out = lines.slice();
          if (kind === 'delete') out.splice(i, n);
          else if (kind === 'duplicate') out.splice(i, 0, ...lines.slice(i, i + n));
          else for (let k = i; k < Math.min(out.length, i + n * 4); k++) out[k] = out[k].trimStart();
          bytes = enc.encode(out.join('\n'));
        }
        noThrowAll(dec.decode(bytes));
        expectAgree(bytes);
      }),
      { numRuns: 400 },
    );
  });
});
