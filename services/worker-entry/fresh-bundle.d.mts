export declare const BUNDLE_FORMAT: number;
export declare const DEFAULT_CACHE_DIR: string;
export declare const PRODUCT_WORKER_ENTRIES: string[];
export declare const CLI_ENTRY: string;
export declare const PRODUCT_BUNDLE_ENTRIES: string[];
export declare function workerCacheDir(): string;
export declare function bundlePaths(entry: string | URL, cacheDir?: string): { name: string; main: string; manifest: string; cacheDir: string };
export declare function freshBundle(entry: string | URL, cacheDir?: string): string | undefined;
