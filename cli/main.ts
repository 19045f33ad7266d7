// The `hnsight` command: argument handling and dispatch. Each command lives in cli/commands/.
import { USAGE } from './usage.ts';
import { runInspect } from './commands/inspect.ts';
import { runServe } from './commands/serve.ts';
import { runTrace } from './commands/trace.ts';
import { runReach } from './commands/reach.ts';
import { runCollect } from './commands/collect.ts';
import { runReport } from './commands/report.ts';
import { runDiff } from './commands/diff.ts';
import { runFleetCommand } from './commands/fleet.ts';
import { UsageError } from './errors.ts';
import { BundleOpenError } from '../services/bundle/source.ts';
import { failureText } from './format/failure-text.ts';
import { safeText } from './format/safe-text.ts';
import { reflow, USAGE_HANG, writeWrapped } from './format/wrap.ts';

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'inspect':
        return await runInspect(rest);
      case 'trace':
        return await runTrace(rest);
      case 'reach':
        return await runReach(rest);
      case 'serve':
        return await runServe(rest);
      case 'collect':
        return await runCollect(rest);
      case 'report':
        return await runReport(rest);
      case 'diff':
        return await runDiff(rest);
      case 'fleet':
        return await runFleetCommand(rest);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        writeWrapped(process.stdout, reflow(USAGE), { hang: USAGE_HANG });
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      writeWrapped(process.stderr, `hnsight: ${safeText(e.message)}\n\n${reflow(USAGE)}`, { hang: USAGE_HANG });
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
