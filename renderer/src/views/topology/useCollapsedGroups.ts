// Which nodes of the topology are folded (graph/collapse-state.ts). A new topology starts from its
// default (pods drawn as their endpoint, load-balancer groups and VFP ports folded); a node's own
// control folds or opens it through groupToggles, so toggling does not rebuild every node's props;
// the toolbar opens or folds every group, and shows or folds every VFP port.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { TopologyGraph } from '../../../../analysis/view-models/types.ts';
import { collapseKey, defaultCollapsed, foldable, folded, opened, toggled } from '../../graph/collapse-state.ts';
import { groupToggles } from '../../graph/group-toggles.ts';

export interface CollapsedGroups {
  collapsed: ReadonlySet<string>;
  /** Names the collapse state (the layout cache's key). */
  key: string;
  /** Every node id that has children (empty: nothing to fold). */
  groups: ReadonlySet<string>;
  /** Every node id with attached nodes (endpoints with a VFP port node). */
  hosts: ReadonlySet<string>;
  toggle(id: string): void;
  collapseAll(): void;
  expandAll(): void;
  /** Draws (true) or folds every VFP port. */
  showPorts(show: boolean): void;
}

export function useCollapsedGroups(full: TopologyGraph | undefined): CollapsedGroups {
  // The default of a new topology is there on its first render (the layout's arrangement is made
  // from it); what the user folds or opens is kept for that topology only.
  const defaults = useMemo<ReadonlySet<string>>(() => (full ? defaultCollapsed(full) : new Set()), [full]);
  const [own, setOwn] = useState<{ graph?: TopologyGraph; set: ReadonlySet<string> }>({ set: new Set() });
  const collapsed = own.graph === full ? own.set : defaults;
  const setCollapsed = useCallback(
    (f: (c: ReadonlySet<string>) => ReadonlySet<string>) => setOwn((o) => ({ graph: full, set: f(o.graph === full ? o.set : defaults) })),
    [full, defaults],
  );

  const toggle = useCallback((id: string) => setCollapsed((c) => toggled(c, id)), [setCollapsed]);
  const open = useCallback((ids: string[]) => setCollapsed((c) => opened(c, ids)), [setCollapsed]);
  useEffect(() => {
    groupToggles.toggle = toggle;
    groupToggles.open = open;
    return () => {
      if (groupToggles.toggle === toggle) groupToggles.toggle = undefined;
      if (groupToggles.open === open) groupToggles.open = undefined;
    };
  }, [toggle, open]);

  const { groups, hosts } = useMemo(() => (full ? foldable(full) : { groups: new Set<string>(), hosts: new Set<string>() }), [full]);
  const collapseAll = useCallback(() => setCollapsed((c) => folded(c, groups)), [groups, setCollapsed]);
  const expandAll = useCallback(() => setCollapsed((c) => opened(c, groups)), [groups, setCollapsed]);
  const showPorts = useCallback((show: boolean) => setCollapsed((c) => (show ? opened(c, hosts) : folded(c, hosts))), [hosts, setCollapsed]);
  const key = useMemo(() => collapseKey(collapsed), [collapsed]);
  return { collapsed, key, groups, hosts, toggle, collapseAll, expandAll, showPorts };
}
