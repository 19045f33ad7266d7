#!/usr/bin/env node
// Runs the TypeScript CLI directly (tsx), so `npx hnsight` works right after `npm install` with no
// build step.
import { register } from 'tsx/esm/api';

// A reader that stops early (`| head`) closes the pipe; that is not an error worth a stack trace.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});

register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
