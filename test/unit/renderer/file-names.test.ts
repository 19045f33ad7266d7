// Every component file is named after what it exports (SummaryDialog.tsx exports SummaryDialog), so
// a name found in the UI or a stack trace leads to its file. Entry points that export nothing are
// listed by name. Hook files (use*.ts) export the hook they are named after. Exports are read with
// the TypeScript parser, not a regular expression, so `export { X }`, `export default function X`
// and `export const X = memo(…)` all count.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../renderer/src');

/** Files that start the app rather than export a part of it. */
const ENTRY_POINTS = new Set(['main.tsx', 'index.tsx']);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

const exported = (node: ts.Statement): boolean => ts.canHaveModifiers(node) && !!ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** The names a module exports (values and types), as written in its source. */
function exportedNames(fileName: string, source: string): Set<string> {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out = new Set<string>();
  for (const st of sf.statements) {
    if (ts.isExportDeclaration(st) && st.exportClause && ts.isNamedExports(st.exportClause)) {
      for (const el of st.exportClause.elements) out.add(el.name.text);
    } else if (ts.isVariableStatement(st) && exported(st)) {
      for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) out.add(d.name.text);
    } else if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st) || ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st) || ts.isEnumDeclaration(st)) && exported(st) && st.name) {
      out.add(st.name.text);
    }
  }
  return out;
}

/** Files whose base name is not among their exports. */
function misnamed(files: { file: string; source: string }[]): string[] {
  return files
    .filter(({ file }) => !ENTRY_POINTS.has(path.basename(file)))
    .filter(({ file, source }) => !exportedNames(file, source).has(path.basename(file).replace(/\.tsx?$/, '')))
    .map(({ file }) => file);
}

describe('renderer file names', () => {
  const all = filesUnder(SRC);
  const read = (files: string[]) => files.map((file) => ({ file: path.relative(SRC, file), source: readFileSync(file, 'utf8') }));

  it('finds the components and hooks it checks', () => {
    expect(all.filter((f) => f.endsWith('.tsx')).length).toBeGreaterThan(40);
    expect(all.some((f) => f.endsWith(path.join('views', 'TopologyView.tsx')))).toBe(true);
  });

  it('reads exports the way they are written, and catches a file named after something it does not export', () => {
    expect([...exportedNames('A.tsx', 'export const A = memo(function A() { return null; });\nexport type { B } from "./b";\nfunction C() {}\nexport { C as D };')]).toEqual(['A', 'B', 'D']);
    expect([...exportedNames('Q.tsx', 'export default function Q() { return <div />; }\nexport interface QProps {}')]).toEqual(['Q', 'QProps']);
    expect(misnamed([{ file: 'views/SummaryCard.tsx', source: 'export function SummaryDialog() { return null; }' }])).toEqual(['views/SummaryCard.tsx']);
    expect(misnamed([{ file: 'main.tsx', source: 'createRoot(document.body);' }])).toEqual([]);
  });

  it('names every .tsx file after one of its exports (entry points aside)', () => {
    expect(misnamed(read(all.filter((f) => f.endsWith('.tsx'))))).toEqual([]);
  });

  it('names every hook file (use*.ts) after the hook it exports', () => {
    const hooks = all.filter((f) => /^use[A-Z]\w*\.ts$/.test(path.basename(f)));
    expect(hooks.length).toBeGreaterThan(5);
    expect(misnamed(read(hooks))).toEqual([]);
  });
});
