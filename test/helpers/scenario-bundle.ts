// A walk scenario (test/fixtures/walk-scenarios, see its README) written out as a bundle folder, so
// the app can open it: a copy of the scenario's base with the scenario's edits applied the way
// test/unit/walk/scenarios.test.ts applies them in memory (edited files decoded, changed with LF line
// ends, written as UTF-8; every other file copied byte for byte). Several scenarios on the same base
// can be applied to one copy. An anchor or find text that is not unique, or not found, throws.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeText } from '../../parsers/text/decode.ts';

const FIX = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../fixtures');
const DIR = path.join(FIX, 'walk-scenarios');

interface Edit {
  file: string;
  at?: string | string[];
  find: string | string[];
  replace?: string | string[];
  insertAfter?: string | string[];
  insertBefore?: string | string[];
}

export interface Scenario {
  title: string;
  base: string;
  edits: Edit[];
  flow: { srcIp: string; dstIp: string; dstPort?: number; proto: 'tcp' | 'udp' | 'icmp'; dip?: string };
}

const text = (v: string | string[]) => (Array.isArray(v) ? v.join('\n') : v);

function count(hay: string, needle: string): number {
  let n = 0;
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) n++;
  return n;
}

function applyEdit(body: string, e: Edit, where: string): string {
  let from = 0;
  const find = text(e.find);
  if (e.at !== undefined) {
    const anchor = text(e.at);
    if (count(body, anchor) !== 1) throw new Error(`${where}: anchor occurs ${count(body, anchor)} times in ${e.file}, not once`);
    from = body.indexOf(anchor);
  } else if (count(body, find) !== 1) throw new Error(`${where}: find text occurs ${count(body, find)} times in ${e.file}; give an anchor`);
  const i = body.indexOf(find, from);
  if (i < 0) throw new Error(`${where}: find text not found in ${e.file}`);
  const end = i + find.length;
  if (e.replace !== undefined) return body.slice(0, i) + text(e.replace) + body.slice(end);
  if (e.insertAfter !== undefined) return body.slice(0, end) + text(e.insertAfter) + body.slice(end);
  if (e.insertBefore !== undefined) return body.slice(0, i) + text(e.insertBefore) + body.slice(i);
  throw new Error(`${where}: an edit needs replace, insertAfter or insertBefore`);
}

export function readScenario(name: string): Scenario {
  return JSON.parse(readFileSync(path.join(DIR, 'scenarios', `${name}.json`), 'utf8')) as Scenario;
}

/** Writes the scenarios' base with all their edits to a new temporary folder; returns its path. */
export function scenarioBundle(names: string[]): string {
  const scenarios = names.map(readScenario);
  const base = scenarios[0].base;
  if (scenarios.some((s) => s.base !== base)) throw new Error('the scenarios must share one base');
  const src = base.startsWith('bases/') ? path.join(DIR, base) : path.join(FIX, base);
  const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'hnsight-scenario-')), path.basename(base));
  mkdirSync(out);
  const edits = scenarios.flatMap((s, k) => s.edits.map((e) => ({ e, where: names[k] })));
  for (const f of readdirSync(src)) {
    const from = path.join(src, f);
    if (!statSync(from).isFile() || f.startsWith('expected')) continue;
    const mine = edits.filter((x) => x.e.file === f);
    if (!mine.length) {
      copyFileSync(from, path.join(out, f));
      continue;
    }
    let body = decodeText(new Uint8Array(readFileSync(from)), f).text.replace(/\r\n/g, '\n');
    for (const { e, where } of mine) body = applyEdit(body, e, where);
    writeFileSync(path.join(out, f), body, 'utf8');
  }
  for (const { e, where } of edits) if (!readdirSync(src).includes(e.file)) throw new Error(`${where}: edit of ${e.file}, which ${base} does not have`);
  return out;
}
