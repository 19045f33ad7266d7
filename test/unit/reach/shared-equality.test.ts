// Reach's shared model (analysis/reach/shared-rules.ts) takes a rule printed the same on several ports
// from the first port that printed it, "the same" being decided by analysis/reach/shared-key.ts in one
// pass over each block (a hash of its head, its counters' tail compared). The model must equal a
// freshly parsed one: on every generated platform's small node, the demos, the fixture bundles with a
// VFP dump and the corpus's VFP dumps, every port's policy deep-equals materializeVfpPort of the
// port's own bytes (lines and hit counters aside: a shared rule's are its first port's). And rules
// that differ in anything but a counter's value are never merged.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sharedRulesModel, sharedRulesStats } from '../../../analysis/reach/shared-rules.ts';
import { sameRule } from '../../../analysis/reach/shared-key.ts';
import { materializeVfpPort } from '../../../parsers/vfp/scan.ts';
import { parseBundleFile } from '../../../parsers/bundle/parse-file.ts';
import { assembleModel } from '../../../parsers/model/assemble.ts';
import { loadBundle } from '../../../services/bundle/load.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';
import { PLATFORMS } from '../../../tools/gen/index.ts';
import { buildPlatform } from '../platforms/helpers.ts';
import { CORPUS, corpusBytes } from '../../helpers/corpus.ts';
import { allModels, type Named } from './models.ts';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** A policy as plain data, without source lines and counters (which a shared rule takes from its first port). */
const plain = (x: unknown): unknown => JSON.parse(JSON.stringify(x, (k, v) => (k === 'src' || k === 'line' || k === 'counters' ? undefined : v)));

/** Every port's policy from the shared model deep-equals the port's own bytes parsed afresh. */
function expectOwnPolicies(m: NodeModel): number {
  const s = sharedRulesModel(m);
  let ports = 0;
  for (const p of m.ports ?? []) {
    if (!p.policy) continue;
    const f = m.vfp!.files[p.policy.file]!;
    const fresh = materializeVfpPort(f.bytes, f.index, p.policy.port).value;
    expect(plain(s.vfp!.getPolicy(p.key)), p.name).toEqual(plain(fresh));
    ports++;
  }
  return ports;
}

/** Bundles under test/fixtures beyond allModels' (the walk scenarios' bases), with a VFP dump. */
const scenarioBases = (): Named[] => {
  const d = path.join(repo, 'test/fixtures/walk-scenarios/bases');
  return readdirSync(d)
    .filter((f) => statSync(path.join(d, f)).isDirectory())
    .map((f) => ({ name: `test/fixtures/walk-scenarios/bases/${f}`, load: () => loadBundle(path.join(d, f)) }));
};

// The corpus's VFP dumps (real outputs from public issues; each file's `.src` names its origin).
const CORPUS_VFP = ['vfp-list-rule__microsoft-SdnDiagnostics-pr-629.txt', 'vfp-list-rule-acl-layer__mrolmedo-rke2windows-README.txt', 'hns-loadbalancer-json-and-vfp-rule-fragment__kubernetes-kubernetes-pr-115344.txt'];

describe('the shared model equals a freshly parsed one', () => {
  for (const n of [...allModels(), ...scenarioBases()]) {
    it(`${n.name}: every port's policy is its own bytes parsed`, async () => {
      const m = await n.load();
      if (!m.vfp) return;
      expectOwnPolicies(m);
    });
  }
  describe.skipIf(!CORPUS)('the corpus', () => {
    for (const c of CORPUS_VFP) {
      it(c, () => {
        const m = assembleModel([parseBundleFile('vfpOutput.txt', corpusBytes(c))], { location: 'corpus', kind: 'folder', root: '' });
        expect(expectOwnPolicies(m)).toBeGreaterThan(0);
      });
    }
  });
});

/**
 * Injects near-duplicates into a dump: of the first rule name printed on at least four ports with a
 * condition line ending in a digit and a `Matched packets` counter, the 2nd copy gets one byte of that
 * condition changed, the 3rd its counter changed, the 4th the condition one digit longer (the same
 * text up to there, a different length). Returns the edited text and whether a name fitted.
 */
function injectNearDuplicates(text: string): { text: string; name?: string; repeated: number } {
  const lines = text.split('\n');
  const ruleAt = (l: string) => /^\s*RULE\s*:\s*(\S+)/.exec(l.replace(/\r$/, ''))?.[1];
  const blocks = new Map<string, { cond: number; counter: number }[]>();
  for (let i = 0; i < lines.length; i++) {
    const name = ruleAt(lines[i]!);
    if (!name) continue;
    let cond = -1;
    let counter = -1;
    for (let j = i + 1; j < lines.length && !/^\s*(RULE|GROUP|LAYER)\s*:/.test(lines[j]!) && !/Policy for port/.test(lines[j]!); j++) {
      const l = lines[j]!.replace(/\r$/, '');
      if (cond < 0 && /^\s*Conditions:/.test(l) && /\d$/.test(lines[j + 1]?.replace(/\r$/, '') ?? '')) cond = j + 1;
      if (counter < 0 && /^\s*Matched packets\s*:\s*\d+$/.test(l)) counter = j;
    }
    if (cond >= 0 && counter >= 0) blocks.set(name, [...(blocks.get(name) ?? []), { cond, counter }]);
  }
  const name = [...blocks.keys()].find((k) => blocks.get(k)!.length >= 4);
  const counts = new Map<string, number>();
  for (const l of lines) {
    const n = ruleAt(l);
    if (n) counts.set(n, (counts.get(n) ?? 0) + 1);
  }
  const repeated = [...counts.values()].filter((c) => c >= 4).length;
  if (!name) return { text, repeated };
  const [, second, third, fourth] = blocks.get(name)!;
  const edit = (i: number, f: (l: string) => string) => {
    const cr = lines[i]!.endsWith('\r') ? '\r' : '';
    lines[i] = f(lines[i]!.replace(/\r$/, '')) + cr;
  };
  edit(second!.cond, (l) => l.slice(0, -1) + String((Number(l.slice(-1)) + 1) % 10));
  edit(third!.counter, (l) => l.replace(/\d+$/, (d) => String(Number(d) + 12345)));
  edit(fourth!.cond, (l) => `${l}7`);
  return { text: lines.join('\n'), name, repeated };
}

describe('near-duplicates are not merged', () => {
  for (const platform of PLATFORMS) {
    it(`generated ${platform}: a byte of a condition, a longer condition: parsed apart; a counter: shared`, () => {
      let name: string | undefined;
      let repeated = 0;
      const edited = buildPlatform(platform, { pods: 5, services: 5 }, {}, (p, text) => {
        if (p !== 'vfpOutput.txt') return text;
        const r = injectNearDuplicates(text);
        name = r.name;
        repeated = r.repeated;
        return r.text;
      }).model;
      // A node whose dump prints no rule four times (antrea's and nat's small nodes) has nothing to share.
      if (!name) return expect(repeated, 'a rule printed four times but none fitted').toBe(0);
      const plainModel = buildPlatform(platform, { pods: 5, services: 5 }).model;
      expectOwnPolicies(plainModel);
      expectOwnPolicies(edited);
      // Exactly the two copies whose text differs are new distinct rules; the one with another counter is not.
      expect(sharedRulesStats(edited).parsed, name).toBe(sharedRulesStats(plainModel).parsed + 2);
    });
  }
});

describe('rule blocks taken as the same', () => {
  const enc = new TextEncoder();
  const bodyLine = fc.oneof(
    fc.constantFrom('        Priority : 100', '        Type : lbnat', '        Conditions:', '            Destination IP : 10.96.0.1', '            Protocols : 6', '        Flow TTL: 240', '        FlagsEx : 0 ', ''),
    fc.stringMatching(/^ {8}[A-Za-z :.0-9-]{0,30}$/),
  );
  const counterKey = fc.constantFrom('        Matched packets', '        Dropped packets', '        Pending packets', '        Dropped unified flows', '        Dropped flows');
  const counter = fc.tuple(counterKey, fc.constantFrom(' : ', ': ', ':', '  :  '), fc.nat({ max: 99999 }), fc.constantFrom('', ' ', '\r')).map(([k, c, n, e]) => ({ key: `${k}${c}`, value: n, end: e }));
  const block = fc.record({ name: fc.constantFrom('LB_1', 'LB_2'), body: fc.array(bodyLine, { maxLength: 10 }), counters: fc.array(counter, { maxLength: 5 }), blank: fc.boolean() });
  type B = { name: string; body: string[]; counters: { key: string; value: number; end: string }[]; blank: boolean };
  const text = (b: B, values?: number[]) =>
    [`    RULE : ${b.name}`, ...b.body, ...b.counters.map((c, i) => `${c.key}${values?.[i] ?? c.value}${c.end}`), ...(b.blank ? [''] : [])].join('\n') + '\n';

  it('the same block but for its counters\' values, wherever it lies, is the same rule', () => {
    fc.assert(
      fc.property(block, fc.array(fc.nat({ max: 9_999_999 }), { minLength: 5, maxLength: 5 }), fc.nat({ max: 7 }), fc.boolean(), (b, values, at, guided) => {
        expect(sameRule(enc.encode(text(b)), enc.encode(text(b, values)), at, guided)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('any one byte changed, added or removed that changes what the lines say is another rule', () => {
    fc.assert(
      fc.property(block, fc.nat(), fc.integer({ min: 1, max: 255 }), fc.constantFrom('change', 'insert', 'delete'), fc.nat({ max: 7 }), fc.boolean(), (b, pos, delta, how, at, guided) => {
        const a = enc.encode(text(b));
        const i = pos % a.length;
        const c = Uint8Array.from(a);
        let changed: Uint8Array;
        if (how === 'change') {
          c[i] = (c[i]! + delta) & 255;
          changed = c;
        } else if (how === 'insert') changed = Uint8Array.from([...a.subarray(0, i), delta, ...a.subarray(i)]);
        else changed = Uint8Array.from([...a.subarray(0, i), ...a.subarray(i + 1)]);
        // An edit that leaves the lines saying the same (a blank byte into a counter's value) is no change.
        if (sameByLines(new TextDecoder().decode(a), new TextDecoder().decode(changed))) return;
        expect(sameRule(a, changed, at, guided)).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });
});

/** What "the same rule" means, said plainly: line for line equal, or both a counter line of the same key whose values are numbers. */
function sameByLines(a: string, b: string): boolean {
  const al = a.split('\n');
  const bl = b.split('\n');
  const counter = /^(\s*(?:Matched|Dropped|Pending) packets\s*:|\s*Dropped (?:unified )?flows\s*:)[ \t]*\d+[ \t\r]*$/;
  return (
    al.length === bl.length &&
    al.every((x, i) => {
      const y = bl[i]!;
      if (x === y) return true;
      const cx = counter.exec(x);
      const cy = counter.exec(y);
      return !!cx && !!cy && cx[1] === cy[1];
    })
  );
}
