// The cluster workspace: the nodes of a cluster as groups with the paths between them, the findings
// across nodes, and a walk across nodes whose halves are listed node by node and lit on the graph.
// The graph's container says what is lit (data-lit-ids), for tests and automation.
import { useMemo, useState } from 'react';
import { Background, BackgroundVariant, Controls, ReactFlow, ReactFlowProvider } from '@xyflow/react';
import { useCluster, clusterStore } from './cluster-store.ts';
import { clusterFlow } from './cluster-flow.ts';
import { CLUSTER_NODE_TYPES } from './ClusterGroupNode.tsx';
import type { Response } from '../../../contract/index.ts';
import { plural } from '../lib/format.ts';

type Walk = Response<'walkAcross'>;

function parseTarget(s: string): { ip: string; port?: number } {
  const t = s.trim();
  const v6 = /^\[(.+)\]:(\d+)$/.exec(t);
  if (v6) return { ip: v6[1], port: Number(v6[2]) };
  const v4 = /^([\d.]+):(\d+)$/.exec(t);
  if (v4) return { ip: v4[1], port: Number(v4[2]) };
  return { ip: t };
}

function WalkForm() {
  const walking = useCluster((s) => s.walking);
  const [src, setSrc] = useState('');
  const [dst, setDst] = useState('');
  const [proto, setProto] = useState<'tcp' | 'udp' | 'icmp'>('tcp');
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const to = parseTarget(dst);
    if (!src.trim() || !to.ip) return;
    void clusterStore.getState().walkAcross({ srcIp: src.trim(), dstIp: to.ip, dstPort: proto === 'icmp' ? undefined : to.port, proto });
  };
  return (
    <form className="cluster-walk-form" onSubmit={submit} aria-label="Walk across nodes">
      <label>
        From <input data-testid="cluster-walk-src" value={src} onChange={(e) => setSrc(e.target.value)} placeholder="10.244.1.3" />
      </label>
      <label>
        To <input data-testid="cluster-walk-dst" value={dst} onChange={(e) => setDst(e.target.value)} placeholder="10.244.2.3:80" />
      </label>
      <select data-testid="cluster-walk-proto" value={proto} onChange={(e) => setProto(e.target.value as 'tcp' | 'udp' | 'icmp')} aria-label="Protocol">
        <option value="tcp">TCP</option>
        <option value="udp">UDP</option>
        <option value="icmp">ICMP</option>
      </select>
      <button type="submit" className="btn" data-testid="cluster-walk-go" disabled={walking}>
        {walking ? 'Walking…' : 'Walk across nodes'}
      </button>
    </form>
  );
}

/** "but …" after a verdict that says the packet got through, "and …" after one that says it did not. */
function caveatClause(w: Walk | NonNullable<Walk['reply']>): string {
  if (!w.verdictCaveat) return '';
  return `${w.verdict === 'delivered' || w.verdict === 'forwarded' ? 'but' : 'and'} ${w.verdictCaveat.text}`;
}

function Legs({ w, testid }: { w: Walk | NonNullable<Walk['reply']>; testid: string }) {
  // Hops are numbered across the whole walk (as `hnsight trace A B` prints them); the findings on a
  // hop are listed under it, a finding across nodes marked as such.
  const findingsAt = (leg: number, k: number) => {
    const offset = w.hops.findIndex((h) => h.leg === leg && h.kind !== 'handover');
    return (w.findings ?? []).filter((f) => f.hop === offset + k && w.hops[f.hop]?.kind !== 'handover');
  };
  const handoverFindings = (leg: number) => (w.findings ?? []).filter((f) => f.hop !== undefined && w.hops[f.hop]?.kind === 'handover' && w.hops[f.hop].leg === leg);
  let numbered = 0;
  const sev = w.verdictCaveat?.severity;
  return (
    <div data-testid={testid}>
      <p className={`cluster-verdict verdict-${w.verdict}${sev ? ` caveat-${sev}` : ''}`} data-testid={`${testid}-verdict`} data-caveat={sev ?? ''}>
        <strong>{w.verdict[0].toUpperCase() + w.verdict.slice(1)}</strong>
        {w.verdictCaveat ? <span className={`sev-${sev}`}>, {caveatClause(w)}</span> : null}
        {w.inferred ? ' (some steps are inferred)' : ''} — {w.reason}
      </p>
      {w.legs.map((leg, i) => {
        const start = numbered + 1;
        numbered += leg.walk.hops.length;
        return (
          <section key={`${leg.node}-${i}`} className="cluster-leg" data-testid="cluster-leg" data-node={leg.node}>
            <h4>
              on {leg.node} <span className="muted">{leg.bundle}</span>
            </h4>
            <ol start={start}>
              {leg.walk.hops.map((h, k) => (
                <li key={k} className={`hop-${h.kind}`}>
                  <span className="hop-at">{h.at}</span> <span className="hop-action">{h.action}</span>
                  {h.inferred ? <span className="muted"> (inferred)</span> : null}
                  {h.evidence ? <span className="hop-ev muted"> — {h.evidence.file}:{h.evidence.line}</span> : null}
                  {findingsAt(i, k).map((f) => (
                    <div key={f.key} className={`hop-finding sev-${f.severity}`} data-testid="cluster-hop-finding" data-node={f.node}>
                      {f.severity}: {f.title} <span className="muted">— {f.why}</span>
                    </div>
                  ))}
                </li>
              ))}
            </ol>
            {w.handovers[i] ? (
              <div className="cluster-handover" data-testid="cluster-handover">
                <p>
                  ⇒ {w.handovers[i].to ? `to ${w.handovers[i].to}` : 'nowhere'}: {w.handovers[i].note}
                </p>
                {handoverFindings(i).map((f) => (
                  <div key={f.key} className={`hop-finding sev-${f.severity}`} data-testid="cluster-hop-finding" data-node={f.node} data-across="true">
                    {f.severity} (across nodes): {f.title}
                  </div>
                ))}
              </div>
            ) : null}
          </section>
        );
      })}
      {w.caveats.map((c, i) => (
        <p key={i} className="caveat">
          {c.node ? `${c.node}: ` : ''}
          {c.text}
        </p>
      ))}
    </div>
  );
}

function ClusterGraphView() {
  const graph = useCluster((s) => s.graph);
  const walk = useCluster((s) => s.walk);
  const showReply = useCluster((s) => s.showReply);
  const litList = useMemo(() => [...((showReply ? walk?.replyLit : walk?.lit) ?? [])].sort(), [walk, showReply]);
  const flow = useMemo(() => (graph ? clusterFlow(graph, new Set(litList)) : { nodes: [], edges: [] }), [graph, litList]);
  return (
    <div className="cluster-graph" data-testid="cluster-graph" data-lit-ids={litList.join(' ')} data-nodes={graph?.nodes.filter((n) => n.kind === 'node').length ?? 0}>
      <ReactFlowProvider>
        <ReactFlow nodes={flow.nodes} edges={flow.edges} nodeTypes={CLUSTER_NODE_TYPES} fitView nodesConnectable={false} proOptions={{ hideAttribution: true }} minZoom={0.2}>
          <Background variant={BackgroundVariant.Dots} gap={16} size={1} />
          <Controls showInteractive={false} />
        </ReactFlow>
      </ReactFlowProvider>
    </div>
  );
}

export function ClusterWorkspace() {
  const opened = useCluster((s) => s.opened);
  const walk = useCluster((s) => s.walk);
  const error = useCluster((s) => s.error);
  const showReply = useCluster((s) => s.showReply);
  if (!opened) return null;
  const findings = opened.findings.filter((f) => f.severity !== 'info');
  return (
    <div className="cluster-workspace" data-testid="cluster-workspace">
      <ClusterGraphView />
      <aside className="cluster-panel">
        <h3>
          {plural(opened.nodes.length, 'node')} <span className="muted">{opened.location}</span>
        </h3>
        <ul className="cluster-nodes">
          {opened.nodes.map((n) => (
            <li key={n.id} data-testid="cluster-node" data-node={n.id}>
              <strong>{n.id}</strong> {n.nodeIp ?? ''} · {n.platform} · {plural(n.errors, 'error')}, {plural(n.warnings, 'warning')}
            </li>
          ))}
        </ul>
        <p className="muted">
          {opened.joins} things the nodes say about each other, {opened.unresolved} that no open bundle confirms
        </p>
        {findings.length ? (
          <details open data-testid="cluster-findings">
            <summary>
              {plural(findings.length, 'finding')} across nodes
            </summary>
            <ul>
              {findings.map((f, i) => (
                <li key={i} className={`sev-${f.severity}`}>
                  <strong>{f.severity}</strong> {f.title}
                  {f.nodes.odd.length ? <span className="muted"> — odd: {f.nodes.odd.join(', ')}</span> : null}
                </li>
              ))}
            </ul>
          </details>
        ) : (
          <p data-testid="cluster-findings">No finding across nodes.</p>
        )}
        <WalkForm />
        {error ? <p className="error" role="alert">{error}</p> : null}
        {walk ? (
          <>
            <div className="cluster-reply-toggle">
              <label>
                <input type="checkbox" data-testid="cluster-show-reply" checked={showReply} disabled={!walk.reply} onChange={(e) => clusterStore.getState().setShowReply(e.target.checked)} /> light the reply
              </label>
            </div>
            <Legs w={walk} testid="cluster-walk" />
            {walk.reply ? (
              <>
                <h4>Reply</h4>
                <Legs w={walk.reply} testid="cluster-reply" />
              </>
            ) : null}
          </>
        ) : null}
      </aside>
    </div>
  );
}
