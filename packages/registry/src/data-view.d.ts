/**
 * The data view's HTML. Not compiled from here: `scripts/build-pages.mjs` bundles view/ and writes
 * the page as this module into both builds (dist/data-view.js, esm/data-view.js).
 */
export declare const html: string;
