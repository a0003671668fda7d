/**
 * The data view's HTML: one module, in the ES module build only, which both builds import when a
 * host first asks for the view. Not compiled from TypeScript: `scripts/build-pages.mjs` bundles
 * view/ and writes the page as esm/data-view.js.
 */
export declare const html: string;
