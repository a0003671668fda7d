#!/usr/bin/env node
/* global require */
"use strict";
// Node's compile cache, as TypeScript's own `tsc` enables it: the code of TypeScript's library
// (about 9 MB, compiled at every start otherwise) and of this package is kept compiled between
// runs. Node ≥ 22.1; NODE_DISABLE_COMPILE_CACHE=1 turns it off. Before anything else is loaded.
try {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the launcher of a CommonJS package
  require("node:module").enableCompileCache?.();
} catch {
  // A cache that cannot be opened costs only the time it would have saved.
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the launcher of a CommonJS package
require("../dist/cli.js").run();
