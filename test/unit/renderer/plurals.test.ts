// "1 errors": every count the renderer and the view models write before a noun agrees with it. This
// scans the sources for a number written before a plural noun with no singular branch on the line (a
// `plural()` call, or an `=== 1` choice), and for "(s)". "X of N things" is left alone: N is a total.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { plural } from '../../../renderer/src/lib/format.ts';
import { severityCountText } from '../../../renderer/src/findings/model.ts';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const NOUNS = 'errors|warnings|nodes|links|rows|rules|lines|files|sandboxes|findings|steps|ports|issues|bytes|endpoints|pods|commands|hops|times';
// `{expr} nouns` in JSX or `${expr} nouns` in a template, the expression not a call of plural().
// Not a JSX attribute (`{x} rules={...}`), not a ternary of words (`${open ? 'Hide' : 'Show'} issues`).
const COUNT_BEFORE_NOUN = new RegExp(String.raw`(?<!of \$?)\$?\{(?![^{}]*plural\()(?![^{}]*\?\s*')[^{}]*\}\s(${NOUNS})\b(?!=)`);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.tsx?$/.test(n) && !/\.test\./.test(n) ? [p] : [];
  });
}

describe('counts agree with their nouns', () => {
  it('plural() and the severity chips say 1 error, 2 errors, 0 info', () => {
    for (let n = 0; n < 30; n++) {
      expect(plural(n, 'error')).toBe(`${n} error${n === 1 ? '' : 's'}`);
      expect(severityCountText(n, 'error')).toBe(plural(n, 'error'));
      expect(severityCountText(n, 'warning')).toBe(plural(n, 'warning'));
      expect(severityCountText(n, 'info')).toBe(`${n} info`);
    }
  });

  it('no source in the renderer or the view models writes a count before a plural noun unchecked, or "(s)"', () => {
    const bad: string[] = [];
    for (const file of [...sources(path.join(repo, 'renderer/src')), ...sources(path.join(repo, 'analysis/view-models'))]) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          const where = `${path.relative(repo, file)}:${i + 1}: ${line.trim()}`;
          if (/^\s*(\/\/|\*)/.test(line)) return;
          if (COUNT_BEFORE_NOUN.test(line) && !/=== 1\b/.test(line)) bad.push(where);
          const strings = line.match(/'[^']*'|`[^`]*`|"[^"]*"/g) ?? [];
          if (strings.some((x) => /[a-z]\(s\)/.test(x.replace(/https?\(s\)/g, '')))) bad.push(where);
        });
    }
    expect(bad).toEqual([]);
  });
});
