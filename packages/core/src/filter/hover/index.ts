/** Hover: the meaning of a field, operator or keyword at an offset. */
export { hoverAt } from './hover.js';
export type { HoverInfo } from './hover.js';
