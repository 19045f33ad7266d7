// The packet walk's public entry, kept where its callers import it; the stages live in ./engine/
// (source, vSwitch, load balancing, routing, uplink, delivery, reply: analysis/walk/README.md).
export { walkFlow, walkReply } from './engine/index.ts';
export type { WalkOptions } from './walk-port.ts';
