// A check looks at the node model and says what is misconfigured, with the lines that show it.
// Each check declares the network plugins whose facts it relies on (analysis/platform/facts.ts):
// the runner does not run it on another plugin, and lowers its errors to warnings when it is not
// sure which plugin built the node.
import type { Finding } from '../findings/types.ts';
import type { PluginId } from '../platform/index.ts';
import type { CheckContext } from './context.ts';

export interface Check {
  /** Module id (a check may emit findings with several related ids, listed in `ids`). */
  id: string;
  ids: string[];
  title: string;
  /**
   * The plugins whose facts the check relies on, or 'any' when it reads only what HNS, VFP, the
   * host or the logs say the same way on every plugin.
   */
  platforms: readonly PluginId[] | 'any';
  /** What the check takes for granted, in words (shown when it is skipped, listed in the catalogue). */
  assumes: string;
  /**
   * Sources whose objects the check needs complete: when one of them is cut or unreadable, its errors
   * become warnings marked undecided, saying which file (a rule missing from a cut VFP dump is no
   * missing rule).
   */
  reads?: readonly ('loadBalancers' | 'endpoints' | 'routes' | 'ip' | 'vfp')[];
  run(ctx: CheckContext): Finding[];
}
