// The topology view's camera (views/topology/useCamera.ts) registers its Fit here while it is
// mounted; the F key and the menu's Fit command (hooks/useShortcuts.ts) call it without reaching
// into the view.
export const graphCommands: { fit?: () => void } = {};
