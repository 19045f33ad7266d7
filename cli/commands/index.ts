// The CLI's command table: every command's name and what runs it. main.ts dispatches through it and
// the help (`hnsight <command> --help`, `hnsight help <command>`) answers for exactly these names, so
// a new command is added here once.
import { runInspect } from './inspect.ts';
import { runServe } from './serve.ts';
import { runTrace } from './trace.ts';
import { runReach } from './reach.ts';
import { runCollect } from './collect.ts';
import { runReport } from './report.ts';
import { runDiff } from './diff.ts';
import { runFleetCommand } from './fleet.ts';

export type CommandRunner = (argv: string[]) => Promise<number>;

export const COMMANDS: Readonly<Record<string, CommandRunner>> = {
  inspect: runInspect,
  trace: runTrace,
  reach: runReach,
  fleet: runFleetCommand,
  report: runReport,
  diff: runDiff,
  serve: runServe,
  collect: (argv) => runCollect(argv),
};

export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);

export function commandRunner(name: string): CommandRunner | undefined {
  return Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
}
