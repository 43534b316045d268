/** Refactors as pure text edits on parsed source. */
export { inListRefactors } from './in-list.js';
export { notRefactors } from './not.js';
