// A check looks at the node model and says what is misconfigured, with the lines that show it.
import type { Finding } from '../inspect.ts';
import type { CheckContext } from './context.ts';

export interface Check {
  /** Module id (a check may emit findings with several related ids, listed in `ids`). */
  id: string;
  ids: string[];
  title: string;
  run(ctx: CheckContext): Finding[];
}
