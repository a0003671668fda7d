/*
 * The TypeScript versions sourced supports, written once: the loaders' bounds, the words of their
 * refusals and warnings, and the peer range every published package that takes the project's
 * TypeScript declares (test/versions.test.ts holds each package.json to it).
 */

/** The classic backend: TypeScript's JavaScript API, in process. */
export const CLASSIC_RANGE = ">=5.0 <6.1";
/** The native backend: TypeScript 7's IPC API, whose shape changes between minor versions. */
export const NATIVE_RANGE = ">=7.0.2 <7.2";
/** The `typescript` peer range of @sourced/project, cli, analysis and unplugin. */
export const SUPPORTED_TYPESCRIPT = `${CLASSIC_RANGE} || ${NATIVE_RANGE}`;

/** What to run for a TypeScript the classic backend supports: the newest 6.0, never a 6.1 it does not. */
export const INSTALL_CLASSIC = "npm install --save-dev typescript@6.0";
/** TypeScript 6's API beside a TypeScript 7 that keeps `tsc`. */
export const INSTALL_CLASSIC_BESIDE = "npm install --save-dev @typescript/typescript6@6";
/** A range, not `typescript@7`: that would install whatever TypeScript 7 is newest, supported or not. */
export const INSTALL_NATIVE = `npm install --save-dev "typescript@${NATIVE_RANGE}"`;

type Version = readonly [major: number, minor: number, patch: number];

const CLASSIC_LOWEST: Version = [5, 0, 0];
const CLASSIC_ABOVE: Version = [6, 1, 0];
const NATIVE_LOWEST: Version = [7, 0, 2];
const NATIVE_ABOVE: Version = [7, 2, 0];

/** Where a version stands against a backend's range. */
export type Fit = "supported" | "older" | "newer";

/** The classic backend's fit. A prerelease counts as its release (a 6.1 dev build is a 6.1). */
export function classicFit(version: string): Fit {
  return fit(version, CLASSIC_LOWEST, CLASSIC_ABOVE);
}

/** The native backend's fit. A prerelease counts as its release: the loaders go by minor version. */
export function nativeFit(version: string): Fit {
  return fit(version, NATIVE_LOWEST, NATIVE_ABOVE);
}

export function majorMinor(version: string): string {
  const [major, minor] = parse(version);
  return `${major}.${minor}`;
}

function fit(version: string, lowest: Version, above: Version): Fit {
  const parsed = parse(version);
  if (compare(parsed, lowest) < 0) return "older";
  if (compare(parsed, above) >= 0) return "newer";
  return "supported";
}

function parse(version: string): Version {
  const [major = 0, minor = 0, patch = 0] = version
    .split("-")[0]!
    .split(".")
    .map((part) => Number.parseInt(part, 10))
    .map((part) => (Number.isFinite(part) ? part : 0));
  return [major, minor, patch];
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}
