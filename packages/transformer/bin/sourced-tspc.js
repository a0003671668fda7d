#!/usr/bin/env node
/* global require */
"use strict";
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the launcher of a CommonJS package
require("../dist/tspc.js").run();
