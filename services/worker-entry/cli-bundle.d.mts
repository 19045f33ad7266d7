import type { spawn } from 'node:child_process';
export declare const STALE_LOCK_MS: number;
export declare function cliBundle(opts?: { cacheDir?: string; entry?: string }): string | undefined;
export declare function requestCliBundle(opts?: { cacheDir?: string; entry?: string; spawnBuild?: typeof spawn }): 'started' | 'running' | 'skipped';
export declare function importCli(opts?: { cacheDir?: string; entry?: string }): Promise<Record<string, unknown>>;
