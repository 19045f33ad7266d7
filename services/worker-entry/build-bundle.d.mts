import type { BuildResult } from './build-in-child.mjs';
/** Builds the entry's bundle and manifest into cacheDir (.cache/workers by default); throws when it cannot. */
export declare function buildWorkerBundle(entry: string | URL, cacheDir?: string): Promise<void>;
/** Builds each entry whose bundle is missing or stale, one after the other. */
export declare function buildStaleWorkerBundles(entries: string[], cacheDir?: string, opts?: { force?: boolean }): Promise<BuildResult[]>;
/** An input was written during the build: no manifest was written. */
export declare class ChangedDuringBuild extends Error {}
