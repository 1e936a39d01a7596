/**
 * The approval card's HTML document, built from `./view` by scripts/approval-card.mjs: tsdown and vitest answer this
 * module through its plugin.
 */
declare module 'virtual:cardrail/approval-card.html' {
  const html: string;
  export default html;
}
