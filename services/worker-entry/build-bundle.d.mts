/** Builds the entry's bundle and manifest into cacheDir (.cache/workers by default); throws when it cannot. */
export declare function buildWorkerBundle(entry: string | URL, cacheDir?: string): Promise<void>;
