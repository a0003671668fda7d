import { createHash } from "node:crypto";
import * as fs from "node:fs";

/**
 * What identifies a file's version: the project's own files by their content (two edits within
 * the clock's resolution must not look alike), declarations under node_modules and TypeScript's
 * libs by size and mtime (hundreds of them, re-read on every check otherwise). A package.json is
 * read wherever it is: it decides what an import resolves to, and an upgrade can keep both its
 * size (`1.2.3` to `1.2.4`) and its mtime (npm has extracted every file with the tarball's fixed
 * 1985 date). `-` for a file that cannot be read.
 */
export function fingerprintOf(file: string): string {
  try {
    if (/[\\/]node_modules[\\/]/.test(file) && !/[\\/]package\.json$/.test(file)) {
      const stat = fs.statSync(file);
      return `${stat.size}:${stat.mtimeMs}`;
    }
    return createHash("sha1").update(fs.readFileSync(file)).digest("base64");
  } catch {
    return "-";
  }
}
