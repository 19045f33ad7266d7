// Which groups of the topology are folded. A new topology starts from its default (big graphs fold
// their load-balancer groups); a group's own header toggles it through groupToggles, so toggling
// does not rebuild every node's props; the toolbar folds or opens them all.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { TopologyGraph } from '../../../../analysis/view-models/types.ts';
import { defaultCollapsed, groupIds } from '../../graph/visible-graph.ts';
import { groupToggles } from '../../graph/group-toggles.ts';

export interface CollapsedGroups {
  collapsed: ReadonlySet<string>;
  /** Every node id that has children (empty: nothing to fold). */
  groups: ReadonlySet<string>;
  collapseAll(): void;
  expandAll(): void;
}

function toggled(set: ReadonlySet<string>, id: string): Set<string> {
  const next = new Set(set);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

export function useCollapsedGroups(topology: TopologyGraph | undefined): CollapsedGroups {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    if (topology) setCollapsed(defaultCollapsed(topology));
  }, [topology]);

  const toggle = useCallback((id: string) => setCollapsed((c) => toggled(c, id)), []);
  useEffect(() => {
    groupToggles.toggle = toggle;
    return () => {
      if (groupToggles.toggle === toggle) groupToggles.toggle = undefined;
    };
  }, [toggle]);

  const groups = useMemo(() => (topology ? groupIds(topology) : new Set<string>()), [topology]);
  const collapseAll = useCallback(() => setCollapsed(new Set(groups)), [groups]);
  const expandAll = useCallback(() => setCollapsed(new Set()), []);
  return { collapsed, groups, collapseAll, expandAll };
}
