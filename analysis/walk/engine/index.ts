// The packet walk's entry: walkFlow runs the stages (source → vSwitch → delivery, or routing → uplink)
// and finishes the result with its caveats; with `reply: true` the reply is walked too (reply.ts).
// Every hop cites its line; every assumption is marked inferred; a missing file makes the verdict
// "unknown", never a guess. Stages and their sources: analysis/walk/README.md.
import type { NodeModel } from '../../../parsers/model/types.ts';
import type { Flow, WalkResult } from '../types.ts';
import type { WalkOptions } from '../walk-port.ts';
import { walkReply } from './reply.ts';
import { runWalk } from './run.ts';

export type { WalkOptions } from '../walk-port.ts';
export { walkReply } from './reply.ts';

/** Walks one flow; with `reply: true` also walks its reply (`result.reply`). */
export function walkFlow(m: NodeModel, flow: Flow, opts: WalkOptions = {}): WalkResult {
  const r = runWalk(m, flow, opts);
  // The reply starts where the request ended, not where it arrived from.
  if (opts.reply) r.reply = walkReply(m, r, { ...opts, arrive: undefined });
  return r;
}

export { runWalk, finishCaveats, icmpCaveats } from './run.ts';
