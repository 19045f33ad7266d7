// Every key the app answers to, in one list: the keyboard map (?) shows it, and docs/app.md's "Keys"
// says the same. Keys are written for Windows and Linux; the map shows ⌘ for Ctrl on a Mac.

export interface Shortcut {
  keys: string[][];
  what: string;
}

export interface ShortcutGroup {
  title: string;
  items: Shortcut[];
}

export const SHORTCUTS: ShortcutGroup[] = [
  {
    title: 'Anywhere',
    items: [
      { keys: [['Ctrl', 'K'], ['/']], what: 'Search IPs, MACs, GUIDs, names and VFP rule text; “A -> B:port/proto” walks a packet' },
      { keys: [['Ctrl', 'E']], what: 'Export a report' },
      { keys: [['Ctrl', 'Shift', 'V']], what: 'Paste output… (the clipboard’s text)' },
      { keys: [['Ctrl', 'V']], what: 'Outside a text field: Paste output… with the pasted text' },
      { keys: [['Ctrl', 'Z'], ['Ctrl', 'Shift', 'Z'], ['Ctrl', 'Y']], what: 'Undo / redo a note edit (outside a text field)' },
      { keys: [['P']], what: 'Hide or show the side panel (outside a text field)' },
      { keys: [['?']], what: 'This keyboard map' },
      { keys: [['Esc']], what: 'Close the dialog on top; else stop picking on the graph; else leave the walk' },
    ],
  },
  {
    title: 'Graph',
    items: [
      { keys: [['F']], what: 'Fit the whole node in view' },
      { keys: [['Tab'], ['Shift', 'Tab']], what: 'On a node: the next / previous node, brought into view' },
      { keys: [['Enter'], ['Space']], what: 'On a node: select it and show it in the inspector (while picking: use it for the walk)' },
      { keys: [['→'], ['←']], what: 'On a node: open / fold what it holds (a group, a pod’s VFP port, its compartment)' },
      { keys: [['Alt', 'click']], what: 'Pick a node as the walk’s source, then its destination' },
    ],
  },
  {
    title: 'Packet walk',
    items: [
      { keys: [['←'], ['→']], what: 'Previous / next hop' },
      { keys: [['['], [']']], what: 'Previous / next hop' },
    ],
  },
  {
    title: 'Lists and dialogs',
    items: [
      { keys: [['↑'], ['↓']], what: 'Move in the search results, the view rail, the Open menu and the inventory' },
      { keys: [['Page Up'], ['Page Down'], ['Home'], ['End']], what: 'Move through an inventory table' },
      { keys: [['Enter']], what: 'Open the search result or inventory row' },
      { keys: [['/']], what: 'In the Services table: filter it (Esc in the filter clears it; elsewhere Esc closes the opened row)' },
      { keys: [['Tab'], ['Shift', 'Tab']], what: 'Next / previous control (stays inside an open dialog)' },
      { keys: [['←'], ['→'], ['Home'], ['End']], what: 'On the panel splitter: widen or narrow the side panel (Shift: bigger steps)' },
      { keys: [['Enter']], what: 'On the panel splitter: hide the side panel' },
    ],
  },
  {
    title: 'Reachability and Compare',
    items: [
      { keys: [['↑'], ['↓'], ['←'], ['→'], ['Home'], ['End'], ['Page Up'], ['Page Down']], what: 'In the grid: move between cells' },
      { keys: [['Enter']], what: 'In the grid: open the cell’s walk; on a cell not worked out yet (or a group’s cell): work it out' },
      { keys: [['Space']], what: 'In the grid, on a group’s line: open or fold the group' },
      { keys: [['↑'], ['↓'], ['Home'], ['End'], ['Page Up'], ['Page Down']], what: 'In Compare’s reachability list: move' },
      { keys: [['Enter']], what: 'In Compare’s reachability list: open both walks side by side (Esc closes them)' },
    ],
  },
  {
    title: 'Text fields',
    items: [
      { keys: [['Ctrl', 'Enter']], what: 'Save a note; add a paste to this node' },
      { keys: [['Esc']], what: 'Cancel the note being edited' },
    ],
  },
];
