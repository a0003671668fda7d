// A ts-patch program transformer the tests list before @sourced/transformer, in the same real
// tspc build. It breaks one part of the real compiler the way an internal failure would, so the
// tests can prove that such a failure becomes one diagnostic and the build goes on:
//
//   "failFirstChecker": true      the first `program.getTypeChecker()` asked by a plugin (the
//                                 analysis, as it checks the first file) throws; later ones give
//                                 the real checker. tsc's own check uses its internal checker.
//   "failRewriteOf": "list_cities" the compiler's node factory throws once, when the call that
//                                 registers that function is rewritten (stamped or stripped)
//   "withoutProgramDiagnostics": true  the program loses its internal `getProgramDiagnostics`
//                                 (only the builder behind --incremental, -b and --watch asks it),
//                                 as in a TypeScript that would not have it
"use strict";
/* global module */

module.exports = function faults(program, _host, config, extras) {
  const { ts } = extras;
  if (config.failFirstChecker === true) {
    const getTypeChecker = program.getTypeChecker;
    let failed = false;
    program.getTypeChecker = function () {
      if (!failed) {
        failed = true;
        throw new Error("the type checker could not be created");
      }
      return getTypeChecker.call(this);
    };
  }
  if (typeof config.failRewriteOf === "string") {
    const tool = config.failRewriteOf;
    const factory = ts.factory;
    const update = factory.updateCallExpression;
    let failed = false;
    factory.updateCallExpression = function (node, expression, typeArguments, args) {
      const first = node.arguments[0];
      const registers = first !== undefined && ts.isFunctionExpression(first) && first.name?.text === tool;
      if (!failed && registers && args[0] !== first) {
        failed = true;
        throw new Error(`the factory failed on the registration of ${tool}`);
      }
      return update.call(this, node, expression, typeArguments, args);
    };
  }
  if (config.withoutProgramDiagnostics === true) delete program.getProgramDiagnostics;
  return program;
};
