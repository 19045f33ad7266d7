// Choosing a graph node — a click, or Enter / Space on the focused node: in walk pick mode (or with
// Alt, any time) the node's address fills the walk's source, then its destination; otherwise the
// node's object is selected.
import { useCallback } from 'react';
import type { NodeMouseHandler } from '@xyflow/react';
import { appStore, useApp } from '../../store/app-store.ts';
import type { FlowNode, TopoNodeData } from '../../graph/to-flow.ts';
import { addressOfNode } from '../../walk/model.ts';

export type ActivateNode = (data: TopoNodeData, pick: boolean) => void;

export function useActivateNode(): ActivateNode {
  const select = useApp((s) => s.select);
  const picking = useApp((s) => s.picking);
  const pickAddress = useApp((s) => s.pickAddress);
  const toast = useApp((s) => s.toast);
  return useCallback(
    (data, pick) => {
      const n = data.topo;
      if (picking || pick) {
        const a = addressOfNode(n);
        if (!a) {
          toast('info', `${n.label} has no IP address to walk from or to; pick an endpoint, a load balancer or a next hop.`);
          return;
        }
        pickAddress(a);
        appStore.getState().setPanel('walk');
        return;
      }
      if (n.ref) void select(n.ref);
      else if (n.members?.length === 1) void select(n.members[0]);
    },
    [select, picking, pickAddress, toast],
  );
}

export function useNodeClick(): NodeMouseHandler<FlowNode> {
  const activate = useActivateNode();
  return useCallback((e, node) => activate(node.data, e.altKey), [activate]);
}
