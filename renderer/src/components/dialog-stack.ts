// The dialogs open now, the last opened on top. Esc closes the top one wherever the focus is (a
// button that became disabled while saving leaves the focus on the page, not in the dialog), and the
// global keys stay away while any dialog is open. No React: Dialog.tsx registers itself here.

export interface OpenDialog {
  close(): void;
  el: HTMLElement;
}

const open: OpenDialog[] = [];

export const dialogStack = {
  /** Registers an open dialog; the returned function removes it. */
  push(d: OpenDialog): () => void {
    open.push(d);
    return () => {
      const i = open.indexOf(d);
      if (i >= 0) open.splice(i, 1);
    };
  },
  top(): OpenDialog | undefined {
    return open[open.length - 1];
  },
  isOpen(): boolean {
    return open.length > 0;
  },
};
