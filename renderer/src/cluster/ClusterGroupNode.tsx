// A node of the cluster drawn as a group: a frame its address, subnets and pods sit in, with the
// connection points the paths to other nodes attach to (React Flow's own group type has none).
import { Handle, Position, type NodeProps } from '@xyflow/react';

export function ClusterGroupNode(_props: NodeProps) {
  return (
    <>
      <Handle type="target" position={Position.Left} isConnectable={false} />
      <Handle type="source" position={Position.Right} isConnectable={false} />
    </>
  );
}

export const CLUSTER_NODE_TYPES = { clusterGroup: ClusterGroupNode };
