// One rule read on its own must be the rule its port's full parse holds (fields, conditions, data and
// its true file line); a rule's name key must follow the name the parser gives it. Checked on every
// fixture (real outputs and the seed guide's, flattened and CRLF variants), both demo dumps, and random
// mutations of them.
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { materializeVfpPort, scanVfpOutput } from '../../../parsers/vfp/scan.ts';
import { firstRules, readRuleAt } from '../../../parsers/vfp/rule-at.ts';
import { ruleNameKey } from '../../../parsers/vfp/rule-name.ts';
import type { VfpRule } from '../../../parsers/vfp/types.ts';
import { fixture, flatten, toCrlf } from './fixture.ts';

const enc = new TextEncoder();
const NAMES = [
  'vfpOutput-two-ports.txt',
  'filtered-layer-group.txt',
  'VfpCtrl.PortGuid.4FD72AB0-2C35-4AE7-AC9A-F893495BD5EF.txt',
  'ref-k79359-snat-dynnat.txt',
  'ref-pr629-fw-admin-layer.txt',
  'ref-rke2-acl-rule.txt',
  'ref-vfppsm1-paroute-rule.txt',
  'seed-slb-nat-layer-list-rule.txt',
  'seed-remotesubnetroute.txt',
  'seed-l2-rewrite.txt',
  'seed-encap.txt',
  'seed-lbnat.txt',
];
const DEMOS = ['assets/demo/l2bridge-node/vfpOutput.txt', 'assets/demo/overlay-node/vfpOutput.txt'];

/** A rule as plain data (its lazy line read). */
const plain = (r: VfpRule | undefined) => (r ? JSON.parse(JSON.stringify(r)) : r);

/** Every rule of every port: read alone == inside the port's parse; name keys follow the parsed names. */
function expectRulesAgree(bytes: Uint8Array, file = 'f'): number {
  const idx = scanVfpOutput(bytes, file).value;
  const first = firstRules(idx);
  let n = 0;
  const keyOfName = new Map<string, number>();
  const nameOfKey = new Map<number, string>();
  idx.ports.forEach((p, i) => {
    expect(first[i + 1] - first[i]).toBe(p.rules);
    const rules = materializeVfpPort(bytes, idx, i).value.layers.flatMap((l) => l.groups.flatMap((g) => g.rules));
    expect(rules.length).toBe(p.rules);
    rules.forEach((want, k) => {
      const r = first[i] + k;
      expect(plain(readRuleAt(bytes, idx, r))).toEqual(plain(want));
      const key = ruleNameKey(bytes, idx, r);
      expect(idx.ruleName[r]).toBe(key);
      if (want.name === '') expect(key).toBe(-1);
      else if (key !== -1) {
        // One name, one key; one key, one name.
        expect(keyOfName.get(want.name) ?? key).toBe(key);
        expect(nameOfKey.get(key) ?? want.name).toBe(want.name);
        keyOfName.set(want.name, key);
        nameOfKey.set(key, want.name);
      }
      n++;
    });
  });
  return n;
}

describe('readRuleAt and ruleNameKey', () => {
  for (const name of NAMES) {
    it(name, () => {
      const text = fixture(name);
      let rules = 0;
      for (const t of [text, flatten(text), toCrlf(text)]) rules += expectRulesAgree(enc.encode(t), name);
      expect(rules).toBeGreaterThan(0);
    });
  }
  it('the demo dumps, every rule', () => {
    for (const f of DEMOS) expect(expectRulesAgree(new Uint8Array(readFileSync(f)), 'vfpOutput.txt')).toBeGreaterThan(100);
  });
  it('a rule read alone carries its file line', () => {
    const bytes = enc.encode(fixture('vfpOutput-two-ports.txt'));
    const idx = scanVfpOutput(bytes, 'vfpOutput.txt').value;
    expect([0, 1, 2, 3].map((r) => readRuleAt(bytes, idx, r)?.src.line)).toEqual([...idx.ruleLine]);
    expect(readRuleAt(bytes, idx, 4)).toBeUndefined();
    expect(readRuleAt(bytes, idx, -1)).toBeUndefined();
  });
  it('names a rule by its Friendly name when `RULE :` is empty (kubernetes#79359), and says -1 when nothing names it', () => {
    const t = ['LAYER : L', '  GROUP : G', '    RULE : ', '        Friendly name : LB_593C6_10.42.1.2_10.43.0.1_443_6443_6', '        Type : lbnat', '', '    RULE : ', '        Type : allow', ''].join('\r\n');
    const bytes = enc.encode(t);
    const idx = scanVfpOutput(bytes, 'f').value;
    const same = enc.encode(t.replace('RULE : \r', 'RULE : 1234\r'));
    const idx2 = scanVfpOutput(same, 'f').value;
    expect(ruleNameKey(bytes, idx, 0)).toBe(ruleNameKey(same, idx2, 0));
    expect(ruleNameKey(bytes, idx, 1)).toBe(-1);
  });
});

describe('mutations of real fixtures', () => {
  it('truncated, deleted, duplicated and flattened lines: a rule read alone is still the port parse\'s rule', () => {
    fc.assert(
      fc.property(
        fc.record({ name: fc.constantFrom('vfpOutput-two-ports.txt', 'seed-lbnat.txt', 'filtered-layer-group.txt', 'ref-k79359-snat-dynnat.txt'), kind: fc.constantFrom('truncate', 'delete', 'duplicate', 'flatten-some'), a: fc.nat(), b: fc.nat() }),
        ({ name, kind, a, b }) => {
          const text = fixture(name);
          const lines = text.split('\n');
          let out: string;
          if (kind === 'truncate') out = text.slice(0, a % (text.length + 1));
          else {
            const i = a % lines.length;
            const n = 1 + (b % 5);
            const ls = lines.slice();
            if (kind === 'delete') ls.splice(i, n);
            else if (kind === 'duplicate') ls.splice(i, 0, ...lines.slice(i, i + n));
            else for (let k = i; k < Math.min(ls.length, i + n * 4); k++) ls[k] = ls[k].trimStart();
            out = ls.join('\n');
          }
          expectRulesAgree(enc.encode(out));
        },
      ),
      { numRuns: 300 },
    );
  });
});
