#!/usr/bin/env node
// Runs the CLI from its esbuild bundle when that is current (.cache/workers/, the workers' staleness
// rule: services/worker-entry/cli-bundle.mjs), else the TypeScript directly through tsx, so `npx
// hnsight` works right after `npm install` with no build step. A run never waits for a build: when
// the bundle is missing or stale it starts one in a detached child and goes on through tsx; the next
// run uses the bundle. `hnsight serve` bundled holds ≈ 60 MiB less for its whole life (no tsx loader).
import { importCli } from '../services/worker-entry/cli-bundle.mjs';

// A reader that stops early (`| head`) closes the pipe; that is not an error worth a stack trace.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});

/** @type {{ main: (argv: string[]) => Promise<number> }} */
const { main } = await importCli();
process.exitCode = await main(process.argv.slice(2));
