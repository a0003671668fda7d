import type * as ts from "typescript";
import type { TypeScript } from "./typescript";

/**
 * Sets `host` to parse as `tsc` does: JSDoc only where it can change a type, that is everywhere in
 * JavaScript files and only `@see`/`@link` in TypeScript files. `ts.createCompilerHost` parses
 * every JSDoc comment of every file (lib.dom.d.ts's and the dependencies' typings included), which
 * `tsc` itself has skipped since TypeScript 5.3: building the program then costs more than the
 * compiler's own build of it. The judgement reads JSDoc in JavaScript files only (`@type` casts,
 * `@returns`, `@overload`), which stay parsed whole, and the transformer already runs on programs
 * `tsc` parsed this way. TypeScript before 5.3 has no such setting and parses everything.
 */
export function parseAsTsc<Host extends ts.CompilerHost>(typescript: TypeScript, host: Host): Host {
  const mode = (typescript as Partial<Pick<TypeScript, "JSDocParsingMode">>).JSDocParsingMode?.ParseForTypeErrors;
  if (mode !== undefined) host.jsDocParsingMode = mode;
  return host;
}
