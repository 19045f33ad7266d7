// The `hnsight` command: argument handling and dispatch. Each command lives in cli/commands/.
import { USAGE, commandUsage } from './usage.ts';
import { COMMAND_NAMES, commandRunner } from './commands/index.ts';
import { UsageError } from './errors.ts';
import { BundleOpenError } from '../services/bundle/source.ts';
import { failureText } from './format/failure-text.ts';
import { safeText } from './format/safe-text.ts';
import { reflow, USAGE_HANG, writeWrapped } from './format/wrap.ts';

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === 'help' || isHelpFlag(command)) {
      // `hnsight help <command>` is that command's usage; `hnsight`, `hnsight help`, `hnsight --help` all of it.
      const topic = command === 'help' ? rest[0] : undefined;
      if (topic !== undefined && topic !== 'help') return printCommandUsage(topic);
      writeWrapped(process.stdout, reflow(USAGE), { hang: USAGE_HANG });
      return command === undefined ? 2 : 0;
    }
    const run = commandRunner(command);
    if (!run) throw new UsageError(`unknown command "${command}"; the commands are ${COMMAND_NAMES.join(', ')}`);
    if (asksForHelp(rest)) return printCommandUsage(command);
    return await run(rest);
  } catch (e) {
    if (e instanceof UsageError) {
      // The usage of the command that was mistyped (all of it only when no command was recognised).
      const own = command !== undefined && commandRunner(command) ? commandUsage(command) : undefined;
      const more = own ? `${reflow(own)}\nEvery command: hnsight --help\n` : reflow(USAGE);
      writeWrapped(process.stderr, `hnsight: ${safeText(e.message)}\n\n${more}`, { hang: USAGE_HANG });
      return 2;
    }
    if (e instanceof BundleOpenError) {
      process.stderr.write(`hnsight: ${safeText(e.message)}\n`);
      return 2;
    }
    process.stderr.write(`hnsight: unexpected failure: ${safeText(failureText(e))}\n`);
    return 2;
  }
}

function isHelpFlag(arg: string): boolean {
  return arg === '--help' || arg === '-h';
}

/** `--help` or `-h` anywhere before a `--` (after it, every word is an argument, even one spelled like a flag). */
function asksForHelp(args: string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some(isHelpFlag);
}

function printCommandUsage(command: string): number {
  const text = commandRunner(command) ? commandUsage(command) : undefined;
  if (text === undefined) throw new UsageError(`no help for "${command}": the commands are ${COMMAND_NAMES.join(', ')}`);
  writeWrapped(process.stdout, reflow(text), { hang: USAGE_HANG });
  return 0;
}
