// A node's title as React elements: its pieces (lod.ts labelPieces), each kept on one line. Apart
// from TopoNodeView so it can be rendered and tested without the app's store.
import { Fragment, type ReactNode } from 'react';
import { labelPieces } from './lod.ts';

/** A label drawn as its pieces (lod.ts labelPieces), each kept on one line: the compact level may
 *  wrap it at a space or after the ':' before a port (a <wbr>), never inside an address; a piece too
 *  long for the box is ellipsized (graph.css .tnode-piece). */
export function breakable(label: string): ReactNode {
  const pieces = labelPieces(label);
  if (pieces.length < 2) return <span className="tnode-piece">{label}</span>;
  return pieces.map((p, i) => (
    <Fragment key={i}>
      {i > 0 && (p.space ? ' ' : <wbr />)}
      <span className="tnode-piece">{p.text}</span>
    </Fragment>
  ));
}
