// Byte scanner: counts agree with the detailed parser; materialized ports carry true file lines.
import { describe, expect, it } from 'vitest';
import { countVfpPolicy } from '../../../parsers/vfp/count.ts';
import { parseVfpRuleText } from '../../../parsers/vfp/policy-text.ts';
import { materializeVfpPort, scanVfpOutput } from '../../../parsers/vfp/scan.ts';
import { detailedCounts, fixture, fixtureBytes, flatten, scannedCounts, toCrlf } from './fixture.ts';

const enc = new TextEncoder();
const ALL = [
  'vfpOutput-two-ports.txt',
  'filtered-layer-group.txt',
  'VfpCtrl.PortGuid.4FD72AB0-2C35-4AE7-AC9A-F893495BD5EF.txt',
  'ref-pr629-fw-admin-layer.txt',
  'ref-rke2-acl-rule.txt',
  'ref-vfppsm1-paroute-rule.txt',
  'seed-list-layer.txt',
  'seed-slb-nat-layer-list-rule.txt',
  'seed-remotesubnetroute.txt',
  'seed-l2-rewrite.txt',
  'seed-encap.txt',
  'seed-lbnat.txt',
];

describe('scanVfpOutput on vfpOutput-two-ports.txt', () => {
  const bytes = fixtureBytes('vfpOutput-two-ports.txt');
  const { value: idx, issues } = scanVfpOutput(bytes, 'vfpOutput.txt');
  it('indexes ports, layers, groups, rules', () => {
    expect(issues).toEqual([]);
    expect(idx.totals).toEqual({ ports: 2, layers: 3, groups: 3, rules: 4 });
    expect(idx.lines).toBe(158);
    expect(idx.ports.map((p) => [p.name, p.line, p.layers, p.groups, p.rules, p.blocked, p.implicit])).toEqual([
      ['5C3A1D2E-8F4B-4C6A-9E1D-2B3C4D5E6F70', 8, 2, 2, 3, false, false],
      ['9A8B7C6D-5E4F-4A3B-8C2D-1E0F9A8B7C6D', 112, 1, 1, 1, true, false],
    ]);
    expect(idx.layers.map((l) => [l.port, l.name, l.priority, l.line])).toEqual([
      [0, 'ACL_ENDPOINT_LAYER', 15, 22],
      [0, 'SLB_NAT_LAYER', 50, 64],
      [1, 'EXTERNAL_L2_REWRITE_LAYER', 500, 117],
    ]);
    expect([...idx.ruleLine]).toEqual([36, 50, 78, 130]);
    expect([...idx.rulePort]).toEqual([0, 0, 0, 1]);
    expect([...idx.groupLine]).toEqual([27, 69, 121]);
    // Offsets point at the RULE lines.
    const dec = new TextDecoder();
    for (const off of idx.ruleByte) expect(dec.decode(bytes.subarray(off, off + 12)).trim().startsWith('RULE :')).toBe(true);
    expect(idx.ports[0].byteEnd).toBe(idx.ports[1].byteStart);
    expect(idx.ports[1].byteEnd).toBe(bytes.length);
  });
  it('reads the header port table and the generation', () => {
    expect(idx.portTable.map((r) => [r.name, r.mac, r.portId, r.src.line])).toEqual([
      ['5C3A1D2E-8F4B-4C6A-9E1D-2B3C4D5E6F70', '00-15-5D-AA-87-B8', '5', 4],
      ['9A8B7C6D-5E4F-4A3B-8C2D-1E0F9A8B7C6D', '00-15-5D-05-C3-0C', '2', 5],
    ]);
    expect(idx.generation).toBe('get-rule-counter');
  });
  it('materializeVfpPort equals the detailed parse of the whole file, port by port', () => {
    const whole = parseVfpRuleText(fixture('vfpOutput-two-ports.txt'), 'vfpOutput.txt').value;
    for (let i = 0; i < idx.ports.length; i++) {
      const m = materializeVfpPort(bytes, idx, i);
      expect(m.value).toEqual(whole[i]);
    }
    expect(materializeVfpPort(bytes, idx, 1).issues.map((i) => i.line)).toEqual([154]);
  });
  it('an unknown port index is an issue, not a throw', () => {
    const m = materializeVfpPort(bytes, idx, 99);
    expect(m.issues[0].severity).toBe('error');
  });
});

describe('scanner counts == detailed parser counts', () => {
  for (const name of ALL) {
    it(name, () => {
      const text = fixture(name);
      for (const t of [text, flatten(text), toCrlf(text)]) {
        expect(scannedCounts(enc.encode(t))).toEqual(detailedCounts(t));
      }
    });
  }
  it('materialized ports have the scanner counts', () => {
    for (const name of ALL) {
      const bytes = fixtureBytes(name);
      const idx = scanVfpOutput(bytes, name).value;
      idx.ports.forEach((p, i) => {
        expect(countVfpPolicy(materializeVfpPort(bytes, idx, i).value)).toEqual({ layers: p.layers, groups: p.groups, rules: p.rules });
      });
    }
  });
});

describe('scanner edge cases', () => {
  it('empty input', () => {
    const r = scanVfpOutput(new Uint8Array(0), 'x');
    expect(r.value.totals).toEqual({ ports: 0, layers: 0, groups: 0, rules: 0 });
    expect(r.issues.map((i) => i.severity)).toEqual(['info']);
  });
  it('UTF-8 BOM before the first keyword', () => {
    const b = enc.encode('\uFEFFLAYER : L\nRULE : R\n');
    expect(b[0]).toBe(0xef);
    expect(scanVfpOutput(b, 'x').value.totals).toEqual({ ports: 1, layers: 1, groups: 0, rules: 1 });
  });
  it('defaultPortName names an implicit port; list-rule generation from trailer', () => {
    const r = scanVfpOutput(enc.encode('LAYER : L\nCommand list-rule succeeded!\n'), 'x', { defaultPortName: 'P' });
    expect(r.value.ports[0]).toMatchObject({ name: 'P', implicit: true, line: 1, lineStart: 1, byteStart: 0 });
    expect(r.value.generation).toBe('list-rule');
  });
  it('never throws on a non-Uint8Array', () => {
    expect(() => scanVfpOutput(undefined as unknown as Uint8Array, 'x')).not.toThrow();
  });
});
