export * from './types.ts';
export { buildTimelines, formatMs, addFailures, type AddFailure } from './build.ts';
export { readLine, type TimedLine, type LineTime } from './line.ts';
export { STEPS, stepOf, type StepDef } from './steps.ts';
