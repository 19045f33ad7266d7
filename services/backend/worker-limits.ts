// The memory limits of the backend's worker threads (findings, Services, reachability, the
// reachability comparison): each holds a node of its own beside the server's, so what a worker touches
// is the server's resident set (issue #27 point 2: ≤ 0.5× the bundle).

/** The old generation's limit: past it the worker ends with an error and the server goes on. */
export const WORKER_HEAP_MB = 4096;

/**
 * The young generation's limit. V8's default lets it grow to ≈ 48 MiB a thread, touched pages that stay
 * resident; 8 MiB was measured on the 250-pod node (test/bench/server-memory.ts --until findings, load
 * average ≈ 15–20): the server's peak while the checks run 477 → 439 MiB, the checks no slower within
 * the noise of that machine.
 */
export const WORKER_YOUNG_MB = 8;

/** The findings' and Services' workers: one run over the node, then they end. */
export const WORKER_LIMITS = { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB } as const;

/**
 * The reachability workers (the matrix, the comparison) keep V8's young generation: they walk for
 * minutes, and a small young generation promotes more of each walk's short-lived objects. Measured on
 * the 250-pod node, the server after the first pass held 740–900 MiB run to run with either setting:
 * no gain was shown, so the default stays.
 */
export const WALK_WORKER_LIMITS = { maxOldGenerationSizeMb: WORKER_HEAP_MB } as const;
