// Ctrl+K: search the bundle — IPs, MACs, GUIDs, VIPs, names, VFP rule names. Throttled calls,
// hits grouped by kind, ↑/↓/Enter/Esc. A rule hit opens its port with the rule in view.
import { useEffect, useMemo, useRef } from 'react';
import { Search, CornerDownLeft, Footprints } from 'lucide-react';
import type { Flow } from '../../../analysis/walk/types.ts';
import { flowText, parseWalkQuery } from '../walk/model.ts';
import type { SearchHit } from '../../../analysis/view-models/types.ts';
import { Dialog } from '../components/Dialog.tsx';
import { useApp } from '../store/app-store.ts';
import { appStore } from '../store/app-store.ts';
import { groupHits } from './group-hits.ts';

const DEBOUNCE_MS = 120;

function startWalk(flow: Flow) {
  const s = appStore.getState();
  s.setPaletteOpen(false);
  s.setPanel('walk');
  void s.runWalk(flow);
}

/**
 * Shows the hit in the inspector. The side panel may be showing the walk or the findings, behind
 * which the inspector would fill unseen: its tab comes to the front (the walk and the findings keep
 * their state, one tab away).
 */
function openHit(hit: SearchHit) {
  const s = appStore.getState();
  s.setPaletteOpen(false);
  s.setPanel('inspector');
  void s.select(hit.ref, { focusGraph: true, rule: hit.rule ? { name: hit.rule.rule, line: hit.rule.line || undefined } : undefined });
}

export function CommandPalette() {
  const open = useApp((s) => s.paletteOpen);
  const bundle = useApp((s) => s.bundle);
  const setOpen = useApp((s) => s.setPaletteOpen);
  if (!open) return null;
  if (!bundle) {
    return (
      <Dialog label="Search" onClose={() => setOpen(false)} placement="top" className="palette">
        <div className="empty-note">Open a bundle first: search looks through the bundle's objects and rules.</div>
      </Dialog>
    );
  }
  return <PaletteBody onClose={() => setOpen(false)} />;
}

function PaletteBody({ onClose }: { onClose(): void }) {
  const query = useApp((s) => s.query);
  const hits = useApp((s) => s.hits);
  const hitsFor = useApp((s) => s.hitsFor);
  const searching = useApp((s) => s.searching);
  const error = useApp((s) => s.searchError);
  const step = useApp((s) => s.searchStep);
  const retryIndex = useApp((s) => s.retrySearchIndex);
  const active = useApp((s) => s.activeIndex);
  const setQuery = useApp((s) => s.setQuery);
  const runSearch = useApp((s) => s.runSearch);
  const moveActive = useApp((s) => s.moveActive);
  const setActive = useApp((s) => s.setActive);
  const listRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  // The last query stays, selected, so typing replaces it and Enter repeats it.
  useEffect(() => inputRef.current?.select(), []);
  const { groups, flat } = useMemo(() => groupHits(hits), [hits]);
  const walkFlow = useMemo(() => parseWalkQuery(query), [query]);

  // At most one search per DEBOUNCE_MS while typing, and none of the waiting after a pause: a query
  // typed or pasted at once is searched at once (the slice drops answers to older queries).
  const lastRun = useRef(Number.NEGATIVE_INFINITY);
  const pending = useRef<number | undefined>(undefined);
  useEffect(() => {
    const run = () => {
      pending.current = undefined;
      lastRun.current = performance.now();
      void runSearch(query);
    };
    const wait = DEBOUNCE_MS - (performance.now() - lastRun.current);
    if (wait <= 0) {
      run();
      return;
    }
    pending.current = window.setTimeout(run, wait);
    return () => window.clearTimeout(pending.current);
  }, [query, runSearch]);

  useEffect(() => {
    listRef.current?.querySelector<HTMLElement>(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  const onKeyDown = async (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      moveActive(1);
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      moveActive(-1);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      // “A -> B:port/proto” is a walk, not a search.
      if (walkFlow) {
        startWalk(walkFlow);
        return;
      }
      // Typed faster than the debounce: search now, then open the best hit of this query.
      if (hitsFor !== query.trim()) {
        // The throttled search still waiting would supersede this one (the store keeps the newest
        // answer only) and leave the hits of an older query to open: it is not needed any more.
        window.clearTimeout(pending.current);
        pending.current = undefined;
        await runSearch(query);
        const s = appStore.getState();
        const best = groupHits(s.hits).flat[0];
        if (best) openHit(best);
        return;
      }
      const hit = flat[active];
      if (hit) openHit(hit);
    }
  };

  const q = query.trim();
  return (
    <Dialog label="Search the bundle" onClose={onClose} placement="top" className="palette" testId="palette">
      <div className="palette-input">
        <Search size={16} aria-hidden />
        <input
          ref={inputRef}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder="Pod IP, MAC, GUID, VIP:port, network, rule name…"
          aria-label="Search"
          aria-controls="palette-results"
          aria-activedescendant={flat.length ? `hit-${active}` : undefined}
          role="combobox"
          aria-expanded={flat.length > 0}
          spellCheck={false}
          autoComplete="off"
          data-autofocus=""
          data-testid="palette-input"
        />
        {searching && <span className="spinner" aria-label="Searching" />}
      </div>
      {/* Busy until the hits answer the whole query: the hits of the first letters typed show, then are
          replaced (a search is on its way or waits for the throttle). */}
      <div
        className="palette-results"
        id="palette-results"
        role="listbox"
        ref={listRef}
        aria-label="Search results"
        aria-busy={!!q && (searching || hitsFor !== q)}
        data-hits-for={hitsFor}
        data-testid="palette-results"
      >
        {!q && (
          <div className="palette-hint muted">
            Type at least a few characters: “10.244.1.”, “00-15-5D”, “LB_DSR”, a VIP such as “10.96.0.10:53”. Walk a packet with “10.244.1.5 -&gt; 10.96.0.10:53/udp”.
          </div>
        )}
        {walkFlow && (
          <div className="hit-group" role="group" aria-label="Packet walk">
            <div className="hit-group-title">Packet walk</div>
            <div id="hit-walk" role="option" aria-selected className="hit active walk-hit" onClick={() => startWalk(walkFlow)} data-testid="walk-hit">
              <Footprints size={14} aria-hidden />
              <span className="hit-text mono ellipsis">Walk {flowText(walkFlow)}</span>
              <span className="hit-context muted ellipsis">through this node's HNS and VFP policy</span>
              <CornerDownLeft size={13} aria-hidden className="hit-enter" />
            </div>
          </div>
        )}
        {step?.state === 'running' && (
          <div className="palette-hint muted" role="status" data-testid="search-index-progress">
            <span className="spinner" /> Preparing the search of this node{step.progress?.what ? `: ${step.progress.what}` : ''}…
          </div>
        )}
        {step?.state === 'error' && !error && (
          <div className="palette-hint error-text" data-testid="search-index-error">
            The search index could not be built: {step.error}.{' '}
            <button type="button" className="btn small" onClick={() => void retryIndex()}>
              Retry
            </button>
          </div>
        )}
        {q && error && (
          <div className="palette-hint error-text" data-testid="search-error">
            {error}{' '}
            <button type="button" className="btn small" onClick={() => void runSearch(query)}>
              Retry
            </button>
          </div>
        )}
        {q && !error && !walkFlow && hitsFor === q && !flat.length && !searching && <div className="palette-hint muted">Nothing in this bundle matches “{q}”.</div>}
        {groups.map((g) => (
          <div key={g.key} className="hit-group" role="group" aria-label={g.title}>
            <div className="hit-group-title">{g.title}</div>
            {g.hits.map(({ hit, index }) => (
              <div
                key={index}
                id={`hit-${index}`}
                role="option"
                aria-selected={index === active}
                data-index={index}
                className={`hit ${index === active && !walkFlow ? 'active' : ''}`}
                onMouseMove={() => index !== active && setActive(index)}
                onClick={() => openHit(hit)}
                data-testid="hit"
              >
                <span className="hit-text mono ellipsis">{hit.text}</span>
                <span className="hit-context muted ellipsis">{hit.context}</span>
                {index === active && !walkFlow && <CornerDownLeft size={13} aria-hidden className="hit-enter" />}
              </div>
            ))}
          </div>
        ))}
      </div>
      <div className="palette-foot muted">
        <span>
          <kbd>↑</kbd>
          <kbd>↓</kbd> move
        </span>
        <span>
          <kbd>Enter</kbd> open
        </span>
        <span>
          <kbd>Esc</kbd> close
        </span>
      </div>
    </Dialog>
  );
}
