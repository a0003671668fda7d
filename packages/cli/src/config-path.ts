import * as fs from "node:fs";
import * as path from "node:path";
import { UsageError } from "./errors";

/**
 * Turns a `-p` argument into the path of a tsconfig file: a directory means its tsconfig.json.
 * Throws {@link UsageError} when there is none, saying what to pass instead.
 */
export function resolveConfigPath(argument: string, cwd: string, isDefault: boolean): string {
  const absolute = path.resolve(cwd, argument);
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(absolute);
  } catch {
    stat = undefined;
  }
  if (stat?.isDirectory()) {
    const inside = path.join(absolute, "tsconfig.json");
    if (fs.existsSync(inside)) return inside;
    throw new UsageError(`cannot find a tsconfig.json in the directory '${argument}'. Pass '-p <path/to/tsconfig.json>'.`);
  }
  if (stat?.isFile()) return absolute;
  if (isDefault) {
    throw new UsageError(`cannot find tsconfig.json in the current directory. Run sourced check where your tsconfig.json is, or pass '-p <path/to/tsconfig.json>'.`);
  }
  throw new UsageError(`cannot find '${argument}' (from -p). Pass '-p' the path to a tsconfig.json or to a directory that holds one.`);
}
