// No product text says "port(s)", "backend(s)", "policy(ies)": a count is written with the one
// `plural` of parsers/text/quantities.ts (1 port, 2 ports; tested in quantities.test.ts) and a verb
// agrees with it. This scans the strings of every product folder (the renderer and the view models
// have their own, stricter scan: test/unit/renderer/plurals.test.ts). Quoted text keeps its words: a Windows error message and a
// vfpctrl label are what the node prints.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const FOLDERS = ['parsers', 'analysis', 'services', 'cli', 'electron', 'contract', 'renderer/src'];
/** Folders left out of the scan (none now). */
const LATER: string[] = [];
/** Words the node prints, quoted as printed. */
const QUOTED = [
  'not part of any configured subnet(s)', // HCN_E_INVALID_IP's message (parsers/hns/errors.ts)
  'http(s)://', // a URL scheme, not a count
];
const MAYBE_PLURAL = /[A-Za-z]\((s|es|ies)\)/;

/** A string's words: the code inside its `${…}` is taken out (innermost first), `lineOf(s)` is a call. */
function words(x: string): string {
  let t = x;
  for (let prev = ''; prev !== t; ) [prev, t] = [t, t.replace(/\$\{[^{}]*\}/g, '')];
  return QUOTED.reduce((w, q) => w.split(q).join(''), t);
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    if (statSync(p).isDirectory()) return LATER.includes(path.relative(repo, p)) ? [] : sources(p);
    return /\.tsx?$/.test(n) && !/\.test\./.test(n) ? [p] : [];
  });
}

describe('maybe-plurals', () => {
  it('no string in a product folder writes "(s)", "(es)" or "(ies)" after a word', () => {
    const bad: string[] = [];
    for (const file of FOLDERS.flatMap((f) => sources(path.join(repo, f)))) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
          const strings = line.match(/'[^']*'|`[^`]*`|"[^"]*"/g) ?? [];
          if (strings.some((x) => MAYBE_PLURAL.test(words(x)))) bad.push(`${path.relative(repo, file)}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(bad).toEqual([]);
  });
});
