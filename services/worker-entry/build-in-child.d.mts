export interface BuildResult {
  entry: string;
  result: 'fresh' | 'built' | 'changed' | 'failed';
  message?: string;
}
export interface ChildBuild {
  pid: number | undefined;
  entries: string[];
  done: Promise<BuildResult[]>;
}
/** Runs build-bundle.mjs in a child process; returns at once. entries: by default the product's five workers and the CLI. */
export declare function buildInChild(entries?: string[], opts?: { cacheDir?: string; detached?: boolean; force?: boolean }): ChildBuild;
