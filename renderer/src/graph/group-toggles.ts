// Which groups are folded is the topology view's state (views/topology/useCollapsedGroups.ts); node
// components reach its toggle through this holder instead of through node data, so toggling does
// not rebuild every node's props.
export const groupToggles: { toggle?: (id: string) => void } = {};
