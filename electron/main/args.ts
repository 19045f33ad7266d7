// The bundle path on a command line: `electron . <bundle>` in development, `hnsight <bundle>` when
// packaged, or the argv a second instance forwards. Chromium and Electron switches are skipped.
import path from 'node:path';

export function bundleFromArgv(argv: readonly string[], opts: { packaged: boolean; cwd: string }): string | undefined {
  // argv[0] is the executable; in development argv[1] is the app path (`.` or main.cjs).
  const rest = argv.slice(opts.packaged ? 1 : 2);
  for (const a of rest) {
    if (!a || a.startsWith('-')) continue;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(a)) continue; // a URL (protocol handler), not a path
    return path.resolve(opts.cwd, a);
  }
  return undefined;
}
