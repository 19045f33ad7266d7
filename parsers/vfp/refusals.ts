// Numbers in vfpctrl text that are refused (parsers/text/numbers.ts) become warnings at their line:
// `Priority : 1e309` read as priority 1 would reorder the rules; a condition's `/33` or port `-0`
// dropped without a word would change what the rule matches.
import type { IssueSink } from '../types.ts';
import type { KeyValue } from './text-lines.ts';
import { intProblem, parseIntLoose } from './text-lines.ts';
import type { Refuse } from './conditions.ts';

/** A numeric field's value, or undefined with a warning at `line` when its number is refused. */
export function vfpInt(sink: IssueSink, line: number, kv: KeyValue): number | undefined {
  const problem = intProblem(kv.value);
  if (problem) sink.warn(line, `${kv.key}: ${problem}; the value is not read`);
  return parseIntLoose(kv.value);
}

/** Where a condition's refused tokens are told: a warning at the condition's line. */
export function refuseAt(sink: IssueSink, line: number, key: string): Refuse {
  return (why) => sink.warn(line, `condition ${key}: ${why}; the rest of the condition is read`);
}
