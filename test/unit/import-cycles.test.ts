// Import circles (tools/import-cycles.mjs): Tarjan's components on small graphs with known answers, the
// reading of type-only imports, and the rule of issue #24 on this repository: at most 3 circles, each
// of two files whose imports of each other are type-only.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error -- a plain .mjs tool without declarations
import { allowed, checkCircles, circles, importsOf, MAX_CIRCLES } from '../../tools/import-cycles.mjs';

type Edges = Map<string, Map<string, boolean>>;
const graph = (pairs: [string, string, boolean?][]): Edges => {
  const g: Edges = new Map();
  for (const [a, b, t] of pairs) {
    if (!g.has(a)) g.set(a, new Map());
    if (!g.has(b)) g.set(b, new Map());
    g.get(a)!.set(b, t ?? false);
  }
  return g;
};

describe('circles', () => {
  it('finds each strongly connected component of more than one file', () => {
    const g = graph([['a', 'b'], ['b', 'c'], ['c', 'a'], ['c', 'd'], ['d', 'e'], ['e', 'd'], ['f', 'a']]);
    expect(circles(g)).toEqual([['a', 'b', 'c'], ['d', 'e']]);
    expect(circles(graph([['a', 'b'], ['b', 'c']]))).toEqual([]);
  });

  it('agrees with reachability on random graphs: two files share a circle iff each reaches the other', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 7 })), { maxLength: 20 }), (pairs) => {
        const g = graph(pairs.filter(([a, b]) => a !== b).map(([a, b]) => [`f${a}`, `f${b}`]));
        const reach = (from: string) => {
          const seen = new Set<string>();
          const todo = [from];
          while (todo.length) for (const n of g.get(todo.pop()!)?.keys() ?? []) if (!seen.has(n)) { seen.add(n); todo.push(n); }
          return seen;
        };
        const comp = new Map<string, number>();
        (circles(g) as string[][]).forEach((c, i) => c.forEach((f) => comp.set(f, i)));
        for (const a of g.keys()) for (const b of g.keys()) {
          if (a === b) continue;
          const mutual = reach(a).has(b) && reach(b).has(a);
          expect(comp.has(a) && comp.get(a) === comp.get(b)).toBe(mutual);
        }
      }),
    );
  });

  it('allows a circle of two files only when their imports of each other are type-only', () => {
    expect(allowed(['a', 'b'], graph([['a', 'b', true], ['b', 'a', true]]))).toBe(true);
    expect(allowed(['a', 'b'], graph([['a', 'b', true], ['b', 'a', false]]))).toBe(false);
    expect(allowed(['a', 'b', 'c'], graph([['a', 'b', true], ['b', 'c', true], ['c', 'a', true]]))).toBe(false);
  });
});

describe('importsOf', () => {
  it('reads static, re-export, side-effect and dynamic imports, and which are type-only', () => {
    const text = [
      "import type { A } from './a.ts';",
      "import { type B, type C } from './b.ts';",
      "import { type D, e } from './d.ts';",
      "export { f } from '../f.ts';",
      "export type { G } from './g.ts';",
      "import './side.ts';",
      "const h = await import('./h.ts');",
      "let i: import('./i.ts').I; import('./j.ts').then(run);",
      "import x from 'zod';",
    ].join('\n');
    expect(importsOf(text)).toEqual([
      { spec: './a.ts', typeOnly: true },
      { spec: './b.ts', typeOnly: true },
      { spec: './d.ts', typeOnly: false },
      { spec: '../f.ts', typeOnly: false },
      { spec: './g.ts', typeOnly: true },
      { spec: './side.ts', typeOnly: false },
      { spec: './h.ts', typeOnly: false },
      { spec: './i.ts', typeOnly: true },
      { spec: './j.ts', typeOnly: false },
    ]);
  });
});

describe('this repository', () => {
  it(`has at most ${MAX_CIRCLES} import circles, each of two files importing each other's types only`, () => {
    const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
    const { found, bad } = checkCircles(root) as { found: string[][]; bad: string[][] };
    expect(bad.map((c) => c.join(' '))).toEqual([]);
    expect(found.length).toBeLessThanOrEqual(MAX_CIRCLES);
  });
});
