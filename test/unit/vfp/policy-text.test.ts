// Detailed vfpctrl policy parser: golden output, layout variants, malformed input.
import { describe, expect, it } from 'vitest';
import { countVfpPolicy } from '../../../parsers/vfp/count.ts';
import { parseVfpRuleText } from '../../../parsers/vfp/policy-text.ts';
import { fixture, flatten, toCrlf } from './fixture.ts';

const TWO = fixture('vfpOutput-two-ports.txt');

describe('vfpOutput.txt with two ports (get-rule-counter generation)', () => {
  const r = parseVfpRuleText(TWO, 'vfpOutput.txt');
  it('matches the golden JSON (reviewed against the input line by line)', () => {
    expect(JSON.parse(JSON.stringify(r))).toEqual(JSON.parse(fixture('vfpOutput-two-ports.expected.json')));
  });
  it('splits ports on `Policy for port :` + GUID line and keeps per-port sections', () => {
    expect(r.value.map((p) => p.portName)).toEqual(['5C3A1D2E-8F4B-4C6A-9E1D-2B3C4D5E6F70', '9A8B7C6D-5E4F-4A3B-8C2D-1E0F9A8B7C6D']);
    const [a, b] = r.value;
    expect(a.src.line).toBe(8);
    expect(a.sections.map((s) => s.command)).toEqual(['list-space', 'list-mapping', 'get-rule-counter', 'get-port-state', 'list-nat-range', 'get-flow-stats']);
    expect(a.blocked).toBe(false);
    expect(a.portState).toEqual({ Enabled: 'TRUE', Blocked: 'FALSE', BlockOnRestore: 'FALSE' });
    expect(a.natRanges).toEqual(['10.127.130.36 : 1024-65535']);
    expect(a.flowStats).toEqual({ 'Total flows': '12', 'TCP flows': '10' });
    expect(countVfpPolicy(a)).toEqual({ layers: 2, groups: 2, rules: 3 });
    expect(b.blocked).toBe(true);
    expect(countVfpPolicy(b)).toEqual({ layers: 1, groups: 1, rules: 1 });
  });
  it('reads rule counters and does not leak port state into the last rule', () => {
    const rule = r.value[0].layers[0].groups[0].rules[1];
    expect(rule.counters).toEqual({ matchedPackets: 7, droppedPackets: 7, pendingPackets: 0, droppedFlows: 0 });
    expect(rule.conditions.map((c) => [c.kind, c.protocols ?? c.ports])).toEqual([
      ['protocols', [6, 17]],
      ['dstPort', [{ lo: 80, hi: 90 }, { lo: 443, hi: 443 }]],
    ]);
    const last = r.value[0].layers[1].groups[0].rules[0];
    expect(last.extra).toEqual({});
    expect(last.conditions[0].ipRanges).toEqual([{ lo: 0x0af40000, hi: 0x0af4ffff }]);
  });
  it('reports the ERROR: line and keeps going', () => {
    expect(r.issues).toEqual([{ file: 'vfpOutput.txt', line: 154, severity: 'warning', message: 'vfpctrl reported: ERROR: failed to get NAT range for port' }]);
    expect(r.value[1].sections.map((s) => s.command)).toEqual(['get-rule-counter', 'get-port-state', 'get-flow-stats']);
  });
});

describe('layout variants', () => {
  const base = parseVfpRuleText(TWO, 'f');
  it('flattened (all lines at column 0, as in the seed) parses to the same objects', () => {
    expect(parseVfpRuleText(flatten(TWO), 'f')).toEqual(base);
  });
  it('CRLF parses to the same objects as LF', () => {
    expect(parseVfpRuleText(toCrlf(TWO), 'f')).toEqual(base);
    expect(parseVfpRuleText(toCrlf(flatten(TWO)), 'f')).toEqual(base);
  });
  it('filtered /layer /group output (starts at RULE), IPv6 DIP', () => {
    const f = parseVfpRuleText(fixture('filtered-layer-group.txt'), 'x');
    const p = f.value[0];
    expect(p.portName).toBe('F2A203DC-F7AB-4354-B969-8F60C466685A');
    expect(p.layers[0]).toMatchObject({ id: 'LB_DSR', synthetic: true });
    expect(p.layers[0].groups[0]).toMatchObject({ id: 'LB_DSR_IPv4_OUT', synthetic: true });
    const rule = p.layers[0].groups[0].rules[0];
    expect(rule.dipRanges).toEqual([
      { ip: '10.244.0.25', port: 53 },
      { ip: 'fdf5:5d67:b9ce:b28f::13f', port: 53 },
    ]);
    expect(rule.ruleData).toEqual(['Modifying destination IP', 'Count of DIP Ranges: 2']);
    expect(f.issues.map((i) => i.severity)).toEqual(['info', 'info']);
    expect(parseVfpRuleText(flatten(fixture('filtered-layer-group.txt')), 'x')).toEqual(f);
  });
  it('Get-NetView VfpCtrl.PortGuid.<guid>.txt (user @ COMPUTER / PS prompt lines)', () => {
    const name = 'VfpCtrl.PortGuid.4FD72AB0-2C35-4AE7-AC9A-F893495BD5EF.txt';
    const f = parseVfpRuleText(fixture(name), name);
    expect(f.issues).toEqual([]);
    const p = f.value[0];
    expect(p.portName).toBe('4FD72AB0-2C35-4AE7-AC9A-F893495BD5EF');
    expect(p.sections).toEqual([
      { command: 'list-space', line: 2 },
      { command: 'list-rule', line: 9 },
      { command: 'get-port-state', line: 38 },
    ]);
    expect(p.layers.map((l) => l.id)).toEqual(['FW_ADMIN_LAYER_ID']);
    expect(p.layers[0].groups[0].rules[0].src.line).toBe(26);
    expect(p.portState).toEqual({ Enabled: 'TRUE', Blocked: 'FALSE', VmqEnabled: 'FALSE' });
    expect(p.blocked).toBe(false);
  });
  it('defaultPortName names a port the text does not name; lineOffset shifts lines', () => {
    const f = parseVfpRuleText(fixture('ref-pr629-fw-admin-layer.txt'), 'x', { defaultPortName: 'P1', lineOffset: 100 });
    expect(f.value[0].portName).toBe('P1');
    expect(f.value[0].layers[0].src.line).toBe(101);
  });
  it('the GUID may sit on the `Policy for port :` line itself', () => {
    const f = parseVfpRuleText('Policy for port : ABC-1\nLAYER : L\n  Priority : 3\n', 'x');
    expect(f.value.map((p) => [p.portName, p.layers[0].priority])).toEqual([['ABC-1', 3]]);
  });
  it('accepts counter label variants in any case/spacing', () => {
    const f = parseVfpRuleText('RULE : r\nType : allow\nFlagsEx : 0\nMatched Packets: 5\nDROPPED  PACKETS : 2\npending packets:1\nDropped unified flows : 9\n', 'x');
    expect(f.value[0].layers[0].groups[0].rules[0].counters).toEqual({ matchedPackets: 5, droppedPackets: 2, pendingPackets: 1, droppedFlows: 9 });
  });
  it('keeps unknown keys in extra', () => {
    const f = parseVfpRuleText('LAYER : L\n  Colour : blue\n  GROUP : G\n    Shape : round\n    RULE : R\n      Taste : sweet\n      Type : allow\n', 'x');
    const l = f.value[0].layers[0];
    expect(l.extra).toEqual({ Colour: 'blue' });
    expect(l.groups[0].extra).toEqual({ Shape: 'round' });
    expect(l.groups[0].rules[0].extra).toEqual({ Taste: 'sweet' });
  });
});

describe('malformed input', () => {
  it('empty input: no ports, no issues', () => {
    expect(parseVfpRuleText('', 'x')).toEqual({ value: [], issues: [] });
    expect(parseVfpRuleText('\r\n\n  \n', 'x')).toEqual({ value: [], issues: [] });
  });
  it('wrong file: no ports, one info issue', () => {
    const r = parseVfpRuleText('Windows IP Configuration\n\n   Host Name . . . : node1\n', 'ip.txt');
    expect(r.value).toEqual([]);
    expect(r.issues).toEqual([{ file: 'ip.txt', line: 0, severity: 'info', message: expect.stringContaining('no VFP port policy') }]);
  });
  it('truncated mid-rule: everything before is kept, a warning names the last line', () => {
    const lines = TWO.split('\n');
    const cut = lines.slice(0, 55).join('\n'); // ends after `Conditions:` / `Protocols : 6,17` of the 2nd rule
    const r = parseVfpRuleText(cut, 'vfpOutput.txt');
    expect(r.value).toHaveLength(1);
    const g = r.value[0].layers[0].groups[0];
    expect(g.rules).toHaveLength(2);
    expect(g.rules[0].counters?.matchedPackets).toBe(42);
    expect(g.rules[1].type).toBe('block');
    expect(g.rules[1].conditions.map((c) => c.key)).toEqual(['Protocols']);
    expect(r.issues).toEqual([{ file: 'vfpOutput.txt', line: 55, severity: 'warning', message: expect.stringContaining('truncated') }]);
  });
  it('truncated right after `Policy for port :`', () => {
    const r = parseVfpRuleText('Policy for port : \n', 'x');
    expect(r.value).toHaveLength(1);
    expect(r.issues.map((i) => [i.line, i.severity])).toEqual([[1, 'warning']]);
  });
  it('missing GUID line after `Policy for port :` is reported, the blocks still load', () => {
    const r = parseVfpRuleText('Policy for port : \nLAYER : L\n', 'x');
    expect(r.value[0].portName).toBe('');
    expect(r.value[0].layers).toHaveLength(1);
    expect(r.issues[0]).toMatchObject({ line: 1, severity: 'warning' });
  });
  it('junk bytes decoded as U+FFFD do not break the surrounding blocks', () => {
    const junk = TWO.replace('Type : block', 'Type : block\n\uFFFD\uFFFD\u0000garbage ::: {{\n');
    const r = parseVfpRuleText(junk, 'x');
    expect(r.value.map((p) => countVfpPolicy(p))).toEqual([
      { layers: 2, groups: 2, rules: 3 },
      { layers: 1, groups: 1, rules: 1 },
    ]);
  });
  it('Count of DIP Ranges disagreeing with the list is a warning', () => {
    const r = parseVfpRuleText('RULE :\nFriendly name : LB\nType : lbnat\nRule Data:\nCount of DIP Ranges: 3\nDIP Range(s) :\n{ 10.0.0.1 : 80 }\nFlagsEx : 0\n', 'x');
    expect(r.issues.filter((i) => i.severity === 'warning').map((i) => i.line)).toEqual([1]);
  });
  it('never throws on non-string input', () => {
    expect(() => parseVfpRuleText(undefined as unknown as string, 'x')).not.toThrow();
  });
});
