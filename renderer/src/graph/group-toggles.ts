// The topology view owns which groups are collapsed; node components reach its toggle through
// this holder instead of through node data, so toggling does not rebuild every node's props.
export const groupToggles: { toggle?: (id: string) => void } = {};
