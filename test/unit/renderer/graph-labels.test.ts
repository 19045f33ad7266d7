// A node's title never splits an address: it may wrap at a space or after the ':' before a port,
// each piece kept whole (lod.ts labelPieces, TopoNodeView breakable).
import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createElement, Fragment } from 'react';
import { labelChars, labelPieces } from '../../../renderer/src/graph/lod.ts';
import { breakable } from '../../../renderer/src/graph/breakable.tsx';

const texts = (label: string) => labelPieces(label).map((p) => p.text);
const markup = (label: string) => renderToStaticMarkup(createElement(Fragment, null, breakable(label)));

describe('the pieces of a node’s title', () => {
  it('breaks a load balancer only after the ‘:’ before its port, never inside the address', () => {
    expect(texts('10.104.237.115:80/TCP')).toEqual(['10.104.237.115:', '80/TCP']);
    expect(texts('10.96.0.10:53/UDP +3')).toEqual(['10.96.0.10:', '53/UDP', '+3']);
    // An IPv6 VIP keeps its own colons.
    expect(texts('[fd00::10]:53/UDP')).toEqual(['[fd00::10]:', '53/UDP']);
    expect(texts('fd00::a:b')).toEqual(['fd00::a:b']);
    // Words break at their spaces.
    expect(labelPieces('vEthernet (Ethernet)')).toEqual([
      { text: 'vEthernet', space: false },
      { text: '(Ethernet)', space: true },
    ]);
    expect(texts('10.244.0.0/16')).toEqual(['10.244.0.0/16']);
  });

  it('keeps every address of a label whole in one piece', () => {
    const labels = ['10.104.237.115:80/TCP', '10.111.78.231:5432/TCP +1', 'via 10.240.0.20', '*:30080/TCP', '10.244.32.3', 'remote 10.244.33.0/24', '[2001:db8::1]:443/TCP'];
    for (const l of labels) {
      const pieces = texts(l);
      for (const addr of l.match(/\d+\.\d+\.\d+\.\d+|\[[0-9a-f:]+\]/gi) ?? []) expect(pieces.some((p) => p.includes(addr)), `${l}: ${addr}`).toBe(true);
      // Put back together, the pieces are the label.
      expect(labelPieces(l).map((p, i) => (i && p.space ? ' ' : '') + p.text).join('')).toBe(l);
    }
  });

  it('sizes a title by its longest piece', () => {
    expect(labelChars('10.104.237.115:80/TCP')).toBe('10.104.237.115:'.length);
    expect(labelChars('[fd00::10]:53/UDP')).toBe('[fd00::10]:'.length);
  });

  it('draws each piece in an element of its own, a break opportunity only between them', () => {
    expect(markup('10.104.237.115:80/TCP')).toBe('<span class="tnode-piece">10.104.237.115:</span><wbr/><span class="tnode-piece">80/TCP</span>');
    expect(markup('vEthernet (Ethernet)')).toBe('<span class="tnode-piece">vEthernet</span> <span class="tnode-piece">(Ethernet)</span>');
    expect(markup('10.244.32.3')).toBe('<span class="tnode-piece">10.244.32.3</span>');
  });
});
