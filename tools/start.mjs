#!/usr/bin/env node
// `npm start`: until the desktop app exists (issue 3), show the bundled demo node through the CLI so
// the command does something useful on a fresh machine.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const demo = process.argv[2] ?? path.join(repo, 'assets', 'demo', 'l2bridge-node');
console.log('hnsight: the desktop window is not built yet; showing the demo node on the command line.\n');
const r = spawnSync(process.execPath, [path.join(repo, 'bin', 'hnsight.mjs'), 'inspect', demo], { stdio: 'inherit' });
process.exit(r.status ?? 1);
