// The topology view's camera (views/topology/useCamera.ts) registers its commands here while it is
// mounted: Fit for the F key and the menu (hooks/useShortcuts.ts), and zooming into a part of the
// graph for the summary layer's columns, without reaching into the view.
import type { Box } from './elk-graph.ts';

export const graphCommands: { fit?: () => void; zoomInto?: (box: Box) => void } = {};
