#!/usr/bin/env node
// The import circles of the project: strongly connected components (Tarjan) of the graph of relative
// imports between its source files. A circle makes a newcomer hold several files in their head at
// once and decides module evaluation order at run time; issue #24 allows at most 3, each of two files
// whose imports of each other are type-only (erased at compile time, so no run-time circle).
//   node tools/import-cycles.mjs          prints every circle; exits 1 when one is not allowed
// Imports are read by pattern (static `import … from`, `export … from`, `import('…')`), which is what
// this code base writes; a comment that looks like an import is counted too (harmless: it only adds
// an edge, never hides one).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOTS = ['parsers', 'analysis', 'contract', 'services', 'cli', 'electron', 'renderer/src', 'tools', 'bin'];
const EXT = /\.(ts|tsx|mts|mjs|js)$/;
export const MAX_CIRCLES = 3;

function listFiles(root, dir, out) {
  let names;
  try {
    names = readdirSync(join(root, dir));
  } catch {
    return out;
  }
  for (const name of names) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const rel = dir ? `${dir}/${name}` : name;
    const st = statSync(join(root, rel));
    if (st.isDirectory()) listFiles(root, rel, out);
    else if (EXT.test(name) && !name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

const IMPORT_RE = /(?:^|[\n;])\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)(?:\.(\w+))?|(?:^|[\n;])\s*import\s+['"](\.{1,2}\/[^'"]+)['"]/g;

/** The relative imports of one file's text: target specifier and whether the import is type-only. */
export function importsOf(text) {
  const out = [];
  for (const m of text.matchAll(IMPORT_RE)) {
    if (m[4]) {
      // `import type {…}`, or `import { type A, type B }` where every name is a type.
      const names = m[3].replace(/^\{|\}$/g, '').trim();
      const allTypes = m[2] !== undefined || (/^\{[^}]*\}$/.test(m[3].trim()) && names.split(',').map((s) => s.trim()).filter(Boolean).every((s) => s.startsWith('type ')));
      out.push({ spec: m[4], typeOnly: allTypes });
    } else if (m[5]) {
      // `import('./x.ts').Name` in a type is erased; `import('./x.ts')` awaited or `.then`-ed is not.
      out.push({ spec: m[5], typeOnly: m[6] !== undefined && m[6] !== 'then' });
    } else out.push({ spec: m[7], typeOnly: false });
  }
  return out;
}

/** Edges `from → to` (repository-relative paths) with `typeOnly` true when every import along it is. */
export function importGraph(root, roots = ROOTS) {
  const files = roots.flatMap((r) => listFiles(root, r, []));
  const known = new Set(files);
  const edges = new Map();
  for (const f of files) {
    const m = new Map();
    for (const { spec, typeOnly } of importsOf(readFileSync(join(root, f), 'utf8'))) {
      const target = relative(root, resolve(root, dirname(f), spec)).split('\\').join('/');
      const hit = [target, `${target}.ts`, `${target}.tsx`, `${target}/index.ts`].find((t) => known.has(t));
      if (!hit || hit === f) continue;
      m.set(hit, (m.get(hit) ?? true) && typeOnly);
    }
    edges.set(f, m);
  }
  return edges;
}

/** Strongly connected components of more than one file (Tarjan, iterative: no recursion limit). */
export function circles(edges) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const out = [];
  for (const start of edges.keys()) {
    if (idx.has(start)) continue;
    const work = [{ v: start, it: [...edges.get(start).keys()][Symbol.iterator]() }];
    idx.set(start, index);
    low.set(start, index++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const top = work[work.length - 1];
      const next = top.it.next();
      if (!next.done) {
        const w = next.value;
        if (!idx.has(w)) {
          idx.set(w, index);
          low.set(w, index++);
          stack.push(w);
          onStack.add(w);
          work.push({ v: w, it: [...(edges.get(w)?.keys() ?? [])][Symbol.iterator]() });
        } else if (onStack.has(w)) low.set(top.v, Math.min(low.get(top.v), idx.get(w)));
        continue;
      }
      work.pop();
      if (work.length) low.set(work[work.length - 1].v, Math.min(low.get(work[work.length - 1].v), low.get(top.v)));
      if (low.get(top.v) === idx.get(top.v)) {
        const comp = [];
        let w;
        do {
          w = stack.pop();
          onStack.delete(w);
          comp.push(w);
        } while (w !== top.v);
        if (comp.length > 1) out.push(comp.sort());
      }
    }
  }
  return out.sort((a, b) => b.length - a.length || a[0].localeCompare(b[0]));
}

/** A circle issue #24 allows: two files whose imports of each other are both type-only. */
export function allowed(circle, edges) {
  if (circle.length !== 2) return false;
  const [a, b] = circle;
  return edges.get(a).get(b) === true && edges.get(b).get(a) === true;
}

/** Every circle, and why the set fails the rule (undefined when it passes). */
export function checkCircles(root) {
  const edges = importGraph(root);
  const found = circles(edges);
  const bad = found.filter((c) => !allowed(c, edges));
  const problem = bad.length
    ? `${bad.length} import circle(s) of more than two files or with run-time imports both ways`
    : found.length > MAX_CIRCLES
      ? `${found.length} import circles: at most ${MAX_CIRCLES} are allowed`
      : undefined;
  return { found, bad, problem, edges };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const { found, problem, edges } = checkCircles(root);
  for (const c of found) {
    process.stdout.write(`${allowed(c, edges) ? 'allowed' : 'CIRCLE '} (${c.length}) ${c.join(' ')}\n`);
    if (c.length <= 6) for (const a of c) for (const [b, t] of edges.get(a)) if (c.includes(b)) process.stdout.write(`    ${a} → ${b}${t ? ' (type)' : ''}\n`);
  }
  process.stdout.write(`${found.length} circle(s)\n`);
  if (problem) {
    process.stderr.write(`import-cycles: ${problem}\n`);
    process.exit(1);
  }
}
