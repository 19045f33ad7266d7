// The packet walkthrough beside the graph: choose source and destination (lists, typed IP[:port],
// or two clicked graph nodes), the presets filled from the bundle, the verdict, and the hops to step
// through with ←/→ — each with its rule in context (the rules above it that did not match and why),
// the packet before and after, the evidence line, and the load balancer's other backends.
import { useEffect, useMemo, useRef, type FormEvent } from 'react';
import { ArrowLeft, ArrowRight, Ban, CheckCircle2, ClipboardCopy, Crosshair, FilePlus2, FileCheck2, HelpCircle, Play, Send, Sparkles, X } from 'lucide-react';
import type { WalkHop, WalkResult, Verdict } from '../../../analysis/walk/types.ts';
import { formatWalk, describePacket } from '../../../analysis/walk/format.ts';
import { useApp } from '../store/app-store.ts';
import { SourceLink } from '../components/ExcerptDialog.tsx';
import { copyText } from '../lib/copy-text.ts';
import { dipOf, explainingFindings, packetDiff } from './model.ts';
import { parseAddress } from '../../../parsers/net/address.ts';
import { NoteBadge, NotesFor } from '../notes/NotesFor.tsx';
import { hopNoteCounts, hopTarget, sameFlow, cleanFlow } from '../notes/model.ts';

const VERDICT: Record<Verdict, { icon: typeof Send; title: string }> = {
  delivered: { icon: CheckCircle2, title: 'Delivered' },
  forwarded: { icon: Send, title: 'Forwarded' },
  dropped: { icon: Ban, title: 'Dropped' },
  unknown: { icon: HelpCircle, title: 'Unknown' },
};

function WalkForm() {
  const form = useApp((s) => s.walkForm);
  const setForm = useApp((s) => s.setWalkForm);
  const walkFromForm = useApp((s) => s.walkFromForm);
  const runWalk = useApp((s) => s.runWalk);
  const loading = useApp((s) => s.walkLoading);
  const presets = useApp((s) => s.presets);
  const picking = useApp((s) => s.picking);
  const setPicking = useApp((s) => s.setPicking);
  const inventory = useApp((s) => s.inventory);
  const dstRef = useRef<HTMLInputElement>(null);

  const { srcOptions, dstOptions } = useMemo(() => {
    const eps = inventory?.find((t) => t.key === 'endpoints')?.rows ?? [];
    const svcs = inventory?.find((t) => t.key === 'services')?.rows ?? [];
    const local = eps.filter((r) => r.cells.ip && r.cells.where === 'local');
    const remote = eps.filter((r) => r.cells.ip && r.cells.where !== 'local');
    return {
      srcOptions: local.map((r) => ({ value: r.cells.ip, label: `pod ${r.cells.name ?? ''}`.trim() })),
      dstOptions: [
        ...svcs.filter((r) => r.cells.vip).map((r) => ({ value: r.cells.vip, label: `service → ${r.cells.dips ?? ''}`.trim() })),
        ...local.map((r) => ({ value: r.cells.ip, label: `pod on this node ${r.cells.name ?? ''}`.trim() })),
        ...remote.map((r) => ({ value: r.cells.ip, label: `remote ${r.cells.where ?? ''}`.trim() })),
      ],
    };
  }, [inventory]);

  const onDst = (v: string) => {
    const a = parseAddress(v);
    // A service picked from the list carries its protocol (“10.96.0.10:53/UDP”).
    if (a?.proto) setForm({ dst: `${a.ip}${a.port !== undefined ? `:${a.port}` : ''}`, proto: a.proto });
    else setForm({ dst: v });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void walkFromForm();
  };
  return (
    <form className="walk-form" onSubmit={submit} data-testid="walk-form">
      <div className="walk-fields">
        <label htmlFor="walk-src">From</label>
        <div className="walk-field">
          <input id="walk-src" className="input mono" list="walk-src-list" value={form.src} placeholder="pod IP" onChange={(e) => setForm({ src: e.target.value })} spellCheck={false} autoComplete="off" data-testid="walk-src" />
          <button
            type="button"
            className={`btn small icon ${picking === 'src' ? 'primary' : ''}`}
            aria-pressed={picking === 'src'}
            title="Pick the source on the graph (or Alt+click a node)"
            aria-label="Pick the source on the graph"
            onClick={() => setPicking(picking === 'src' ? undefined : 'src')}
          >
            <Crosshair size={13} aria-hidden />
          </button>
        </div>
        <label htmlFor="walk-dst">To</label>
        <div className="walk-field">
          <input
            ref={dstRef}
            id="walk-dst"
            className="input mono"
            list="walk-dst-list"
            value={form.dst}
            placeholder="IP or IP:port"
            onChange={(e) => onDst(e.target.value)}
            spellCheck={false}
            autoComplete="off"
            data-testid="walk-dst"
          />
          <button
            type="button"
            className={`btn small icon ${picking === 'dst' ? 'primary' : ''}`}
            aria-pressed={picking === 'dst'}
            title="Pick the destination on the graph (or Alt+click a node)"
            aria-label="Pick the destination on the graph"
            onClick={() => setPicking(picking === 'dst' ? undefined : 'dst')}
          >
            <Crosshair size={13} aria-hidden />
          </button>
        </div>
        <span className="field-label-inline">Protocol</span>
        <div className="walk-field">
          <div className="segmented" role="radiogroup" aria-label="Protocol">
            {(['tcp', 'udp', 'icmp'] as const).map((p) => (
              <button key={p} type="button" role="radio" aria-checked={form.proto === p} className={form.proto === p ? 'on' : ''} onClick={() => setForm({ proto: p })} data-testid={`proto-${p}`}>
                {p.toUpperCase()}
              </button>
            ))}
          </div>
          <button type="submit" className="btn primary small walk-go" disabled={loading} data-testid="walk-run">
            {loading ? <span className="spinner" aria-hidden /> : <Play size={13} aria-hidden />} Walk
          </button>
        </div>
      </div>
      <datalist id="walk-src-list">
        {srcOptions.map((o) => (
          <option key={o.value} value={o.value} label={o.label} />
        ))}
      </datalist>
      <datalist id="walk-dst-list">
        {dstOptions.map((o, i) => (
          <option key={`${o.value}:${i}`} value={o.value} label={o.label} />
        ))}
      </datalist>
      {!!presets?.length && (
        <div className="walk-presets" aria-label="Presets">
          {presets.map((p) => {
            const m = /^(.*?)\s*\((.*)\)$/.exec(p.title);
            return (
              <button key={p.key} type="button" className="preset" onClick={() => void runWalk(p.flow)} title={`Walk ${p.title}`} data-testid={`preset-${p.key}`}>
                <Sparkles size={12} aria-hidden />
                <span className="preset-name">{m ? m[1] : p.title}</span>
                {m && <span className="preset-flow mono">{m[2]}</span>}
              </button>
            );
          })}
        </div>
      )}
    </form>
  );
}

function VerdictBanner({ t }: { t: WalkResult }) {
  const findings = useApp((s) => s.findings);
  const setHop = useApp((s) => s.setHop);
  const showFinding = useApp((s) => s.showFinding);
  const toast = useApp((s) => s.toast);
  const v = VERDICT[t.verdict];
  const Icon = v.icon;
  const explain = useMemo(() => explainingFindings(t, findings ?? []).slice(0, 3), [t, findings]);
  const d = t.hops[t.deciding];
  const eg = t.egress;
  const flow = useApp((s) => s.walkFlow);
  const traces = useApp((s) => s.notes?.traces);
  const addWalk = useApp((s) => s.addWalkToReport);
  const removeWalk = useApp((s) => s.removeWalkFromReport);
  const inReport = !!flow && !!traces?.some((f) => sameFlow(f, cleanFlow(flow)));
  const egress = [eg.nextHop && `next hop ${eg.nextHop}`, eg.interface && `interface ${eg.interface}`, eg.encapDst && `tunnel endpoint ${eg.encapDst}`].filter(Boolean);
  return (
    <div className={`verdict verdict-${t.verdict}`} role="status" data-testid="verdict">
      <div className="verdict-head">
        <Icon size={18} aria-hidden />
        <strong className="verdict-word">{v.title}</strong>
        {flow && traces && (
          <button
            type="button"
            className={`btn small ${inReport ? 'in-report' : ''}`}
            onClick={() => (inReport ? removeWalk(flow) : addWalk(flow))}
            aria-pressed={inReport}
            title={inReport ? 'This walk is in the report; click to take it out' : 'Add this walk to the report (Export…)'}
            data-testid="walk-add-report"
          >
            {inReport ? <FileCheck2 size={13} aria-hidden /> : <FilePlus2 size={13} aria-hidden />} {inReport ? 'In the report' : 'Add to report'}
          </button>
        )}
        <button
          type="button"
          className="btn small ghost verdict-copy"
          onClick={async () => {
            if (await copyText(formatWalk(t))) toast('success', 'The walk was copied as text.');
            else toast('error', 'The clipboard refused the text.');
          }}
          data-testid="walk-copy"
          title="Copy the walk as text (like hnsight trace)"
        >
          <ClipboardCopy size={13} aria-hidden /> Copy as text
        </button>
      </div>
      <div className="verdict-reason">{t.reason}</div>
      {egress.length > 0 && <div className="verdict-line mono">{egress.join(' · ')}</div>}
      <div className="verdict-line mono muted">final {describePacket(t.final)}</div>
      {t.returnPath && (
        <div className="verdict-line mono muted" data-testid="walk-reply" title={[...t.returnPath.steps.map((s) => `${s.what} (${s.rule ?? `hop ${s.hop + 1}`})`), ...t.returnPath.notes].join('\n')}>
          reply {describePacket(t.returnPath.sent)} ⇒ arrives as {describePacket(t.returnPath.received)}
          {t.returnPath.steps.some((s) => !s.stateful) && <span className="badge warning">not translated back</span>}
        </div>
      )}
      {d && (
        <div className="verdict-line">
          decided at{' '}
          <button type="button" className="link" onClick={() => setHop(t.deciding)} data-testid="goto-deciding">
            hop {t.deciding + 1}: {d.rule ?? d.at}
          </button>
        </div>
      )}
      {explain.length > 0 && (
        <div className="verdict-findings">
          <span>explained by</span>
          {explain.map((f) => (
            <button key={f.key} type="button" className={`finding-chip ${f.severity}`} onClick={() => showFinding(f.key)} title={f.title} data-testid="verdict-finding">
              {f.title}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

function RuleContext({ h }: { h: WalkHop }) {
  if (!h.rule && !h.skipped?.length) return null;
  return (
    <div className="rule-context" data-testid="rule-context">
      {h.layer && (
        <div className="rc-path mono">
          {h.port && <span className="muted">{h.direction ?? ''} </span>}
          {h.layer}
          {h.group && <> › {h.group}</>}
        </div>
      )}
      <ol className="rc-rules">
        {(h.skipped ?? []).map((s, i) => (
          <li key={i} className="rc-rule skipped">
            <span className="rc-prio mono">{s.priority ?? '–'}</span>
            <span className="rc-name mono" title={s.rule}>
              {s.rule}
            </span>
            <span className="rc-why">✕ {s.why}</span>
            <SourceLink file={s.src.file} line={s.src.line} />
          </li>
        ))}
        {h.rule && (
          <li className="rc-rule matched" data-testid="matched-rule">
            <span className="rc-prio mono">{h.priority ?? '–'}</span>
            <span className="rc-name mono" title={h.rule}>
              {h.rule}
            </span>
            <span className="rc-why">
              ✓ matched{h.ruleType && <span className="badge info">{h.ruleType}</span>}
            </span>
            {h.evidence && <SourceLink file={h.evidence.file} line={h.evidence.line} />}
          </li>
        )}
      </ol>
    </div>
  );
}

function PacketTable({ h }: { h: WalkHop }) {
  const rows = packetDiff(h.before, h.after);
  if (!rows.length) return null;
  const changed = rows.some((r) => r.changed);
  return (
    <table className="packet-table" data-testid="packet-table">
      <thead>
        <tr>
          <th />
          {h.before && <th>before</th>}
          <th>{h.before ? 'after' : 'packet'}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key} className={r.changed ? 'changed' : ''}>
            <th scope="row">{r.label}</th>
            {h.before && <td className="mono">{r.before || '–'}</td>}
            <td className="mono">{r.after || '–'}</td>
          </tr>
        ))}
      </tbody>
      {h.before && !changed && (
        <caption className="muted">unchanged</caption>
      )}
    </table>
  );
}

function HopDetail({ h, index }: { h: WalkHop; index: number }) {
  const rerun = useApp((s) => s.rerunWithDip);
  const loading = useApp((s) => s.walkLoading);
  const chosen = h.rewrite?.dstIp;
  const flow = useApp((s) => s.walkFlow);
  return (
    <div className="hop-detail" data-testid="hop-detail">
      {h.inferred && (
        <div className="hop-inferred" data-testid="hop-inferred">
          <strong>inferred:</strong> {(h.note ?? 'the bundle does not state this; the walk assumed it').replace('(choose another with --dip)', '(choose another below)')}
        </div>
      )}
      {!h.inferred && h.note && <div className="hop-note">{h.note}</div>}
      <RuleContext h={h} />
      {!!h.alternatives?.length && (
        <div className="dip-chooser" data-testid="dip-chooser">
          <span className="dip-label">Backend (DIP)</span>
          <div className="dip-list">
            {chosen && (
              <button type="button" className="dip on" aria-pressed disabled>
                <span className="mono">
                  {chosen}
                  {h.rewrite?.dstPort !== undefined ? `:${h.rewrite.dstPort}` : h.after?.dstPort !== undefined ? `:${h.after.dstPort}` : ''}
                </span>{' '}
                taken
              </button>
            )}
            {h.alternatives.map((a) => (
              <button key={a} type="button" className="dip" disabled={loading} onClick={() => void rerun(dipOf(a))} title={`Walk again with the load balancer picking ${a}`} data-testid="dip-alt">
                <span className="mono">{a}</span>
              </button>
            ))}
          </div>
        </div>
      )}
      <PacketTable h={h} />
      {h.evidence ? (
        <div className="hop-evidence">
          evidence <SourceLink file={h.evidence.file} line={h.evidence.line} />
        </div>
      ) : (
        <div className="hop-evidence muted">no line of the bundle states this hop</div>
      )}
      {flow && <NotesFor target={hopTarget(flow, index)} what={`hop ${index + 1}`} className="hop-notes" />}
    </div>
  );
}

function rewriteSummary(h: WalkHop): string {
  const r = h.rewrite;
  if (!r) return '';
  const parts: string[] = [];
  if (r.dstIp || r.dstPort !== undefined) parts.push(`dst → ${r.dstIp ?? ''}${r.dstPort !== undefined ? `:${r.dstPort}` : ''}`);
  if (r.srcIp || r.srcPort !== undefined) parts.push(`src → ${r.srcIp ?? ''}${r.srcPort !== undefined ? `:${r.srcPort}` : ''}`);
  if (r.srcMac) parts.push(`src MAC → ${r.srcMac}`);
  if (r.dstMac) parts.push(`dst MAC → ${r.dstMac}`);
  if (r.encap) parts.push(`${r.encap.type} → ${r.encap.dstIp}`);
  return parts.join(', ');
}

function HopList({ t }: { t: WalkResult }) {
  const hop = useApp((s) => s.hop);
  const setHop = useApp((s) => s.setHop);
  const listRef = useRef<HTMLOListElement>(null);
  const flow = useApp((s) => s.walkFlow);
  const doc = useApp((s) => s.notes);
  const counts = useMemo(() => (flow ? hopNoteCounts(doc, flow) : new Map<number, number>()), [doc, flow]);
  useEffect(() => {
    listRef.current?.querySelector<HTMLElement>('.hop.current')?.scrollIntoView({ block: 'nearest' });
  }, [hop, t]);
  return (
    <ol className="hop-list" ref={listRef} data-testid="hop-list">
      {t.hops.map((h, i) => {
        const cur = i === hop;
        const rw = rewriteSummary(h);
        return (
          <li key={i} className={`hop kind-${h.kind} ${cur ? 'current' : ''} ${i === t.deciding ? 'deciding' : ''} ${h.inferred ? 'inferred' : ''}`} data-testid="hop" aria-current={cur ? 'step' : undefined}>
            <button type="button" className="hop-head" onClick={() => setHop(i)} aria-expanded={cur}>
              <span className="hop-num">{i + 1}</span>
              <span className="hop-main">
                <span className="hop-at">
                  {h.at}
                  {i === t.deciding && <span className={`badge ${t.verdict === 'dropped' ? 'error' : t.verdict === 'unknown' ? 'warning' : 'ok'}`}>deciding</span>}
                  {h.inferred && <span className="badge warning">inferred</span>}
                  <NoteBadge count={counts.get(i) ?? 0} />
                </span>
                {h.rule && (
                  <span className="hop-rule mono" title={`${h.layer ?? ''} / ${h.group ?? ''} / ${h.rule}`}>
                    {h.rule}
                  </span>
                )}
                <span className="hop-action">
                  <span className={`act act-${h.kind === 'drop' || /block|drop/i.test(h.action) ? 'drop' : rw ? 'rewrite' : 'pass'}`}>{h.action}</span>
                  {rw && <span className="mono hop-rw">{rw}</span>}
                </span>
              </span>
            </button>
            {cur && <HopDetail h={h} index={i} />}
          </li>
        );
      })}
    </ol>
  );
}

export function WalkPanel() {
  const t = useApp((s) => s.walk);
  const hop = useApp((s) => s.hop);
  const stepHop = useApp((s) => s.stepHop);
  const clearWalk = useApp((s) => s.clearWalk);
  const error = useApp((s) => s.walkError);
  const loading = useApp((s) => s.walkLoading);
  return (
    <div className="walk-panel side-body scroll" data-testid="walk-panel">
      <WalkForm />
      {error && (
        <div className="note error walk-error" role="alert">
          <span>{error}</span>
        </div>
      )}
      {!t && !error && (
        <div className="walk-empty muted">
          {loading ? (
            <>
              <span className="spinner" aria-hidden /> Walking…
            </>
          ) : (
            <>
              Pick a preset, type two addresses, or use <Crosshair size={12} aria-hidden /> and click two nodes on the graph. In search, <span className="mono">10.244.1.5 -&gt; 10.96.0.10:53/udp</span> walks too.
            </>
          )}
        </div>
      )}
      {t && (
        <>
          <VerdictBanner t={t} />
          <div className="hop-nav" data-testid="hop-nav">
            <button type="button" className="btn small" onClick={() => stepHop(-1)} disabled={hop <= 0} aria-label="Previous hop" data-testid="hop-prev">
              <ArrowLeft size={13} aria-hidden />
            </button>
            <span className="hop-pos">
              hop <strong data-testid="hop-pos">{hop + 1}</strong> of {t.hops.length}
            </span>
            <button type="button" className="btn small" onClick={() => stepHop(1)} disabled={hop >= t.hops.length - 1} aria-label="Next hop" data-testid="hop-next">
              <ArrowRight size={13} aria-hidden />
            </button>
            <span className="muted hop-keys">
              <kbd>←</kbd>
              <kbd>→</kbd> step · <kbd>Esc</kbd> leave
            </span>
            <button type="button" className="btn ghost small icon" onClick={clearWalk} aria-label="Leave the walk" title="Leave the walk (Esc)" data-testid="walk-clear">
              <X size={14} aria-hidden />
            </button>
          </div>
          <HopList t={t} />
        </>
      )}
    </div>
  );
}
