// Which nodes are folded is the topology view's state (views/topology/useCollapsedGroups.ts); node
// components reach it through this holder instead of through node data, so folding does not rebuild
// every node's props. toggle: fold or open one node; open: open several at once (a pod drawn as its
// compartment opens both to show its port).
export const groupToggles: { toggle?: (id: string) => void; open?: (ids: string[]) => void } = {};
