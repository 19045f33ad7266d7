// Reachability over every packet class (issue #25): the public face of analysis/reach.
export { boundaries, hnsBoundaries, type Boundaries } from './boundaries.ts';
export { reachFromCells } from './partition-cells.ts';
export { reachFrom, classOf, DEFAULT_MAX_WALKS, type ReachClass, type ReachFrom, type ReachOptions, type ReachProto } from './partition.ts';
export { outcomeOf, reachVerdict, backendsOf, type Outcome, type ReachVerdict, type BackendOutcome } from './outcome.ts';
export { reachMatrix, DEFAULT_MATRIX_WALKS, defaultSources, defaultDestinations, remotePodSubnets, OUTSIDE, type ReachCell, type Endpoint, type Source } from './matrix.ts';
export { shadowedRules, ruleCovers, type ShadowReport, type ShadowedRule } from './shadow.ts';
export { diffReach, diffPartitions, matchSources, sideIn, type ReachDiff, type ReachChange, type SourcePairs } from './diff.ts';
export { formatClasses, formatCells, formatShadow, formatReachDiff, VERDICTS } from './format.ts';
