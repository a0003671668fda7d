import * as fs from "node:fs";
import * as path from "node:path";

export interface PackageInfo {
  readonly name: string;
  readonly version: string;
  /** `homepage` of package.json: the SARIF `informationUri`, when the package declares one. */
  readonly homepage: string | undefined;
}

let cached: PackageInfo | undefined;

/** This package's own package.json (one level above `dist/`). */
export function packageInfo(): PackageInfo {
  if (cached === undefined) {
    const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "package.json"), "utf8")) as Record<string, unknown>;
    cached = {
      name: String(manifest["name"]),
      version: String(manifest["version"]),
      homepage: typeof manifest["homepage"] === "string" ? manifest["homepage"] : undefined,
    };
  }
  return cached;
}
