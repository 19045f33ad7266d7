// The detailed parser's shortcuts (parsers/vfp/policy-text-lookups.ts) must answer exactly as the
// general functions they stand for: the first-character filter never skips a pattern that matches,
// the key cache gives normKey/counterField/isRuleFieldKey's answers (also after it is full and
// cleared), and the plain-digit number reader gives vfpInt/parseIntLoose's value and warnings.
import fc from 'fast-check';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Could, couldMatch, fastIntLoose, fastVfpInt, keyInfo, ruleFlagsOf } from '../../../parsers/vfp/policy-text-lookups.ts';
import { isRuleFieldKey, PORT_STATE_KEYS } from '../../../parsers/vfp/policy-text-keys.ts';
import { vfpInt } from '../../../parsers/vfp/refusals.ts';
import { counterField, parseFlags } from '../../../parsers/vfp/rule-values.ts';
import { conditionKind } from '../../../parsers/vfp/conditions.ts';
import {
  isHeaderLine,
  isWhoLine,
  matchBlocked,
  matchKeyword,
  matchPortBoundary,
  matchPrompt,
  matchTrailer,
  normKey,
  parseIntLoose,
  splitKeyValue,
  toLines,
} from '../../../parsers/vfp/text-lines.ts';
import { IssueSink } from '../../../parsers/types.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));

/** Every line of every fixture (VFP dumps in all layouts, and the other files of a bundle). */
function fixtureLines(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const n of readdirSync(dir)) {
      const p = join(dir, n);
      const s = statSync(p);
      if (s.isDirectory()) walk(p);
      else if (s.size < 4 << 20 && /\.(txt|log|json)$/i.test(n)) for (const l of toLines(readFileSync(p, 'utf8'))) out.push(l.body);
    }
  };
  walk(FIXTURES);
  return out;
}

/** Lines in every spelling the patterns accept, and near misses, in any case. */
const LINE = fc.oneof(
  fc.constantFrom(
    'LAYER : L1', 'GROUP:G', 'RULE : R', 'rule : r', 'Policy for port : X', 'POLICY FOR PORT:', 'policy for port\t:', 'Blocked : TRUE', 'BLOCKED:false',
    'error: x', 'Error x', 'ERROR', 'Command list-rule succeeded!', 'command get-rule-counter succeeded', 'PS C:\\> vfpctrl /list-rule',
    'vfpctrl /port X /list-rule', 'VFPCTRL.EXE -port x', 'admin @ NODE:', 'a @ b:', 'ITEM LIST', 'item list', '====', '=',
    'Priority : 5', '{ 1.2.3.4 : 80 }', '', ':', 'ſtate', 'ıtem lıst', 'İTEM LIST', 'Ｌayer : x',
  ),
  fc.string({ maxLength: 30 }),
);

const pattern: [number, (b: string) => boolean][] = [
  [Could.Keyword, (b) => matchKeyword(b) !== undefined],
  [Could.Boundary, (b) => matchPortBoundary(b) !== undefined],
  [Could.Blocked, (b) => matchBlocked(b) !== undefined],
  [Could.Error, (b) => /^error\b/i.test(b)],
  [Could.Trailer, (b) => matchTrailer(b) !== undefined],
  [Could.Prompt, (b) => matchPrompt(b) !== undefined],
  [Could.Who, (b) => isWhoLine(b)],
  [Could.Header, (b) => isHeaderLine(b)],
];

function missed(body: string): number[] {
  const could = couldMatch(body);
  return pattern.filter(([bit, match]) => match(body) && !(could & bit)).map(([bit]) => bit);
}

describe('couldMatch: the first-character filter of the line patterns', () => {
  it('never skips a pattern that matches a fixture line', () => {
    const lines = fixtureLines();
    expect(lines.length).toBeGreaterThan(1000);
    const hits = new Set<number>();
    for (const l of lines) {
      expect(missed(l), l).toEqual([]);
      for (const [bit, match] of pattern) if (match(l)) hits.add(bit);
    }
    // The fixtures do exercise the patterns (a filter that skipped them would be noticed).
    expect(hits.has(Could.Keyword) && hits.has(Could.Boundary) && hits.has(Could.Header)).toBe(true);
  });

  it('never skips a pattern that matches any line, in any case', () => {
    fc.assert(
      fc.property(LINE, fc.constantFrom('', 'upper', 'lower'), (l, c) => {
        const body = c === 'upper' ? l.toUpperCase() : c === 'lower' ? l.toLowerCase() : l;
        expect(missed(body)).toEqual([]);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('keyInfo: the per-key cache', () => {
  const KEY = fc.oneof(
    fc.constantFrom('Friendly name', 'Matched  packets', 'Dropped Unified Flows', 'DIP Range(s)', 'Encap Destination(s)', 'FlagsEx', 'VmqEnabled', 'Vmq Enabled', 'blocked', 'constructor', '__proto__', 'GRE key', 'Count of DIP Ranges'),
    fc.string({ maxLength: 12 }),
  );
  const expected = (key: string) => {
    const nk = normKey(key);
    return { nk, portState: PORT_STATE_KEYS.has(nk.replace(/ /g, '')), counter: counterField(nk), ruleField: isRuleFieldKey(nk) };
  };

  it('answers as normKey, counterField and isRuleFieldKey, asked once or again', () => {
    fc.assert(
      fc.property(KEY, (key) => {
        expect(keyInfo(key)).toEqual(expected(key));
        expect(keyInfo(key)).toEqual(expected(key));
      }),
      { numRuns: 2000 },
    );
  });

  it('stays right after more distinct keys than it holds (a hostile dump)', () => {
    for (let i = 0; i < 10_000; i++) keyInfo(`Key ${i}`);
    for (const key of ['Matched packets', 'Key 3', 'Key 9999', 'Enabled']) expect(keyInfo(key)).toEqual(expected(key));
  });
});

describe('fastVfpInt / fastIntLoose: numbers of plain digits read directly', () => {
  const VALUE = fc.oneof(
    fc.stringMatching(/^[0-9]{1,20}$/),
    fc.constantFrom('0', '007', '100', '999999999999999', '9999999999999999', '9007199254740993', '-1', '-0', '1,000', '0x10', '1e309', '1.5', '8195 terminating', 'x', ''),
    fc.string({ maxLength: 8 }),
  );

  it('gives vfpInt’s value and the same warnings', () => {
    fc.assert(
      fc.property(VALUE, (value) => {
        const kv = { key: 'Priority', value };
        const a = new IssueSink('f');
        const b = new IssueSink('f');
        expect(fastVfpInt(a, 3, kv)).toBe(vfpInt(b, 3, kv));
        expect(a.issues).toEqual(b.issues);
        expect(fastIntLoose(value)).toBe(parseIntLoose(value));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads the fixtures’ numeric fields as the general reader does', () => {
    for (const body of fixtureLines()) {
      const kv = splitKeyValue(body);
      if (kv) expect(fastIntLoose(kv.value), body).toBe(parseIntLoose(kv.value));
    }
  });
});

describe('ruleFlagsOf / conditionKind: read once per spelling', () => {
  const FLAGS = fc.oneof(fc.constantFrom('1 terminating', '8195 terminating stateful ', '0', '0x9 Default Allow , Update', 'x', '', '1e309 a'), fc.string({ maxLength: 10 }));

  it('ruleFlagsOf gives parseFlags’ answer, and each caller its own names', () => {
    fc.assert(
      fc.property(FLAGS, (v) => {
        const a = ruleFlagsOf(v);
        expect(a).toEqual(parseFlags(v));
        a?.names.push('changed by a caller');
        expect(ruleFlagsOf(v)).toEqual(parseFlags(v));
      }),
      { numRuns: 2000 },
    );
  });

  it('conditionKind answers the same before and after its cache is filled and cleared', () => {
    const keys = ['Source IP', 'Destination ports', 'Protocols', 'Dst MAC', 'VLAN', 'Source  IPv6s', 'Nothing'];
    const first = keys.map(conditionKind);
    expect(first).toEqual(['srcIp', 'dstPort', 'protocols', 'dstMac', 'vlan', 'srcIp', 'other']);
    for (let i = 0; i < 5000; i++) conditionKind(`Source port ${i}`);
    expect(keys.map(conditionKind)).toEqual(first);
  });
});
