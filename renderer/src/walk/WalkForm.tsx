// The walk's form: source and destination (typed — IPv4, IPv6, IP:port, [IPv6]:port —, picked from
// lists or from two clicked graph nodes), the protocol, and the presets filled from the bundle, each
// saying why its source and destination were picked.
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Crosshair, Play, Sparkles } from 'lucide-react';
import type { WalkPreset } from '../../../analysis/walk/presets.ts';
import { useApp } from '../store/app-store.ts';
import { parseAddress } from '../../../parsers/net/address.ts';
import { endpointText, presetLines } from './model.ts';

/** A preset with the reason it was picked (what source and destination, and why them). */
export type PresetView = WalkPreset & { why?: string };

export function WalkForm() {
  const form = useApp((s) => s.walkForm);
  const setForm = useApp((s) => s.setWalkForm);
  const walkFromForm = useApp((s) => s.walkFromForm);
  const runWalk = useApp((s) => s.runWalk);
  const loading = useApp((s) => s.walkLoading);
  const presets = useApp((s) => s.presets);
  // The presets fold away while a walk is shown (its verdict needs the room at 1280×800) and come back when it is left.
  const walking = useApp((s) => !!s.walk);
  const [presetsOpen, setPresetsOpen] = useState(!walking);
  useEffect(() => setPresetsOpen(!walking), [walking]);
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
    if (a?.proto) setForm({ dst: endpointText(a.ip, a.port), proto: a.proto });
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
          <input id="walk-src" className="input mono" list="walk-src-list" value={form.src} placeholder="pod IP (IPv4 or IPv6)" onChange={(e) => setForm({ src: e.target.value })} spellCheck={false} autoComplete="off" data-testid="walk-src" />
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
            placeholder="IP, IP:port or [IPv6]:port"
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
        <details className="walk-presets-box" open={presetsOpen} onToggle={(e) => setPresetsOpen((e.currentTarget as HTMLDetailsElement).open)} data-testid="walk-presets">
          <summary>
            Presets <span className="muted">({presets.length})</span>
          </summary>
        <div className="walk-presets" aria-label="Presets">
          {presets.map((p: PresetView) => {
            const line = presetLines(p.title);
            return (
              <button key={p.key} type="button" className="preset" onClick={() => void runWalk(p.flow)} title={p.why ? `Walk ${p.title}\n${p.why}` : `Walk ${p.title}`} data-why={p.why} data-testid={`preset-${p.key}`}>
                <Sparkles size={12} aria-hidden />
                <span className="preset-name">{line.name}</span>
                {line.flow && <span className="preset-flow mono">{line.flow}</span>}
              </button>
            );
          })}
        </div>
        </details>
      )}
    </form>
  );
}
