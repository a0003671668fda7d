// The files measure 3c lints (editor-child.mjs), chosen in one place so that whatever else reads
// the editor's session (warm-up.mjs) times the same ones.
import * as fs from "node:fs";
import * as path from "node:path";

/** How many files measure 3c times. */
export const EDITOR_FILES = 50;

/**
 * The project's modules in order, the first of them (linted untimed: it builds the program and the
 * checker, once per editor session) and `count` of the rest, spread evenly over them.
 */
export function editorFiles(dir, count) {
  const modules = fs
    .readdirSync(path.join(dir, "src", "modules"))
    .filter((name) => name.endsWith(".ts"))
    .sort()
    .map((name) => path.join(dir, "src", "modules", name));
  if (modules.length < 2) throw new Error(`${dir} has too few modules for the editor measure`);
  const [warmUp, ...rest] = modules;
  const step = Math.max(1, rest.length / count);
  const files = [];
  for (let i = 0; i < Math.min(count, rest.length); i++) files.push(rest[Math.floor(i * step)]);
  return { modules, warmUp, files };
}
