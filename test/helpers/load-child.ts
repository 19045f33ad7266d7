// The loader child under tsx, for callers that start it with `node --import tsx` (bundle/budgets.test.ts);
// `node test/helpers/load-child.mjs` runs the same main (load-child-main.ts) from its bundle when there is one.
import './load-child-main.ts';
