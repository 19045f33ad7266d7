#!/usr/bin/env node
// `npm test`'s typecheck and lint in one process, on one TypeScript program. The type-aware lint
// rules (eslint.config.js: no-floating-promises, no-misused-promises on services, cli, electron,
// renderer) need a program of those files; building it is most of lint's cost, and the typecheck has
// just built one that holds them all (tsconfig.check.json). typescript-eslint takes an existing program
// (`parserOptions.programs`), so lint reads the typecheck's instead of building its own: same rules,
// same files, one program fewer (docs/testing.md "Where the time goes").
//
// The typecheck is `tsc -b tsconfig.check.json` (parsers/ and analysis/ checked once under their strict
// tsconfig, the rest against their declarations), done through the compiler API to keep its program.
// When the build is up to date (nothing to check), there is no program to share: lint builds the same
// one, and only if a file its cache does not answer for needs it.
// Prints what failed; exit status 1 when the typecheck or lint fails.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { ESLint } from 'eslint';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(repo);

/** The folders whose files the type-aware rules cover (eslint.config.js). */
const TYPE_AWARE = ['services/**/*.ts', 'cli/**/*.ts', 'electron/**/*.ts', 'renderer/**/*.{ts,tsx}'];

function typecheck() {
  const formatHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => repo, getNewLine: () => '\n' };
  let errors = 0;
  const report = (d) => {
    if (d.category === ts.DiagnosticCategory.Error) errors++;
    process.stdout.write(ts.formatDiagnosticsWithColorAndContext([d], formatHost));
  };
  const host = ts.createSolutionBuilderHost(ts.sys, undefined, report, report);
  const builder = ts.createSolutionBuilder(host, ['tsconfig.check.json'], {});
  const app = path.join(repo, 'tsconfig.check.json');
  let program;
  let status = ts.ExitStatus.Success;
  for (let p = builder.getNextInvalidatedProject(); p; p = builder.getNextInvalidatedProject()) {
    if (p.kind === ts.InvalidatedProjectKind.Build && path.resolve(p.project) === app) program = p.getProgram();
    const s = p.done();
    if (s !== ts.ExitStatus.Success) status = s;
  }
  return { ok: status === ts.ExitStatus.Success && errors === 0, program };
}

/**
 * tsconfig.check.json's program, built only when first used: when the build was up to date there is no
 * program to share, and lint needs one only for a file its cache does not answer for. The declarations
 * of parsers/ and analysis/ it reads are the ones the build has just checked.
 */
function lazyProgram() {
  let real;
  const build = () => {
    const parsed = ts.getParsedCommandLineOfConfigFile(path.join(repo, 'tsconfig.check.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
    return ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences });
  };
  return new Proxy(
    {},
    {
      get(_target, key) {
        real ??= build();
        const v = real[key];
        return typeof v === 'function' ? v.bind(real) : v;
      },
    },
  );
}

async function lint(program) {
  // ESLint's cache keys a file's result by its config written as JSON, which a program cannot be: it
  // is written as its tsconfig's name (the files' contents are in the key already), the same whether
  // the program came from the build or is built here.
  const shared = new Proxy(program ?? lazyProgram(), { get: (t, key) => (key === 'toJSON' ? () => 'tsconfig.check.json' : Reflect.get(t, key)) });
  const overrideConfig = [{ files: TYPE_AWARE, languageOptions: { parserOptions: { programs: [shared] } } }];
  const eslint = new ESLint({ cwd: repo, cache: true, cacheLocation: '.cache/eslint/', overrideConfig });
  const results = await eslint.lintFiles(['.']);
  const text = (await eslint.loadFormatter('stylish')).format(results);
  if (text) process.stdout.write(text);
  return results.every((r) => r.errorCount === 0 && r.fatalErrorCount === 0);
}

const t = typecheck();
process.stdout.write(`typecheck: ${t.ok ? 'passed' : 'FAILED'}\n`);
const l = await lint(t.program);
process.stdout.write(`lint: ${l ? 'passed' : 'FAILED'}\n`);
process.exitCode = t.ok && l ? 0 : 1;
