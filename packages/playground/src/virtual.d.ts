/** The scan worker's bundled code, as text (build.mjs makes it). */
declare module 'virtual:scan-worker' {
  const source: string;
  export default source;
}
