// The flags of every command, read one way: node:util's parseArgs (strict: an unknown flag is an
// error), with its errors said in the words of the usage text and the flag named, then the checks
// each command repeats (a whole number in range, one of a list, one bundle). Every problem is a
// UsageError: main prints it with the usage and exits 2.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './errors.ts';
import { readInt, type IntRange } from '../parsers/text/numbers.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

function flagList(options: Options): string {
  return Object.entries(options)
    .map(([name, o]) => `--${name}${o.type === 'string' ? ' VALUE' : ''}${o.short ? ` (-${o.short})` : ''}`)
    .join(', ');
}

/** parseArgs' error, said with the flag named and what to do. */
function problem(command: string, e: unknown, options: Options): string {
  const err = e as { code?: string; message?: string };
  const message = err.message ?? String(e);
  // `'--from <value>'`, or `'-o, --out <value>'` for a flag with a short form: the long name is said.
  const flag = /'(?:-\w, )?(-{1,2}[^'\s<=,]+)/.exec(message)?.[1] ?? 'a flag';
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `${command}: unknown flag ${flag}; ${command} takes ${flagList(options)} (a value that starts with - goes after --)`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/does not take an argument/.test(message)) return `${command}: ${flag} takes no value`;
      if (/ambiguous/.test(message)) return `${command}: ${flag} needs a value (a value that starts with - is written ${flag}=VALUE)`;
      return `${command}: ${flag} needs a value`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `${command}: unexpected argument (${message})`;
    default:
      return `${command}: ${message}`;
  }
}

/** The flags and the other arguments of one command; an unknown flag or a missing value is a UsageError. */
export function parseFlags<const O extends Options>(command: string, argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError(problem(command, e, options));
  }
}

/** A whole number flag, read strictly (`1e3`, `0x50`, `8.0`, `+5` refused); undefined when not given. */
export function wholeNumberFlag(value: string | undefined, flag: string, range: IntRange): number | undefined {
  if (value === undefined) return undefined;
  const r = readInt(value, range);
  if (r.value === undefined) {
    const span = range.max === Number.MAX_SAFE_INTEGER ? `a whole number from ${range.min} up` : `a whole number from ${range.min} to ${range.max}`;
    throw new UsageError(`${flag} must be ${span}, not "${value}"`);
  }
  return r.value;
}

/** A flag whose value is one of a list (compared in lower case); undefined when not given. */
export function oneOfFlag<T extends string>(value: string | undefined, flag: string, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  const v = value.toLowerCase();
  if (!(allowed as readonly string[]).includes(v)) throw new UsageError(`${flag} must be ${allowed.length === 2 ? allowed.join(' or ') : `${allowed.slice(0, -1).join(', ')} or ${allowed[allowed.length - 1]}`}, not "${value}"`);
  return v as T;
}
