import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { packWorkspace, removePackedTarballs, REPO, tarballFiles, workspacePackages } from "./index";
import { spawnSync } from "node:child_process";

/*
 * What a publisher checks before a release, on the packed tarballs themselves: the licence and a
 * README in each, links that work outside the repository, the repository fields, and dependency
 * ranges that de-duplicate with a user's install; and the links in code (a rule's docs URL) name this
 * repository and a file of it, as the READMEs' do.
 */

/** The repository every package, README and doc link names (a placeholder until the project is published). */
export const REPOSITORY = "https://github.com/sourced-dev/sourced";

/** The supported Node lines, as `engines` writes them and as the READMEs and docs say them. */
const ENGINES = "^22.18.0 || ^24.0.0 || >=26.0.0";
const SUPPORTED_NODE = "Node.js 22.18+, 24 or 26";

interface Manifest {
  name: string;
  license?: string;
  repository?: { type: string; url: string; directory: string };
  homepage?: string;
  bugs?: { url: string };
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  engines?: Record<string, string>;
}

function packedFile(tarball: string, file: string): string {
  const result = spawnSync("tar", ["-xzOf", tarball, `package/${file}`], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${file} is not in ${tarball}: ${result.stderr}`);
  return result.stdout;
}

const LICENSE = fs.readFileSync(path.join(REPO, "LICENSE"), "utf8");
afterAll(() => removePackedTarballs());

describe.each(workspacePackages().map((pkg) => [pkg.name, pkg] as const))("the %s tarball", (name, pkg) => {
  const tarball = () => packWorkspace()[name]!;

  it("holds the MIT licence, the README, the built code and the sources its maps point to", () => {
    expect(LICENSE).toMatch(/^MIT License\n/);
    const files = tarballFiles(tarball());
    expect(files).toEqual(expect.arrayContaining(["LICENSE", "README.md", "package.json", "dist/index.js", "dist/index.d.ts", "src/index.ts"]));
    expect(packedFile(tarball(), "LICENSE")).toBe(LICENSE);
    expect(fs.readFileSync(path.join(pkg.directory, "LICENSE"), "utf8")).toBe(LICENSE);
    expect(files.filter((file) => /(^|\/)(test|node_modules)\/|\.tsbuildinfo$/.test(file))).toEqual([]);
  });

  it("has a README with an install command, an example and absolute links only", () => {
    const readme = packedFile(tarball(), "README.md");
    expect(readme).toMatch(new RegExp(`^# ${name.replace("/", "\\/")}\n`));
    expect(readme).toMatch(new RegExp(`npm install (--save-dev )?${name.replace("/", "\\/")}`));
    expect(readme).toMatch(/```(ts|js|jsonc|text)\n/);
    const links = [...readme.matchAll(/\]\(([^)]+)\)/g)].map((match) => match[1]!);
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((link) => !/^https:\/\//.test(link))).toEqual([]);
    expect(links.filter((link) => link.startsWith("https://github.com/") && !link.startsWith(`${REPOSITORY}/`) && !link.startsWith("https://github.com/nonara/"))).toEqual([]);
  });

  it(`supports the maintained Node lines only: engines ${ENGINES}, and the README says "${SUPPORTED_NODE}"`, () => {
    const manifest = JSON.parse(packedFile(tarball(), "package.json")) as Manifest;
    expect(manifest.engines).toEqual({ node: ENGINES });
    expect(packedFile(tarball(), "README.md")).toContain(SUPPORTED_NODE);
  });

  it("names the repository, its docs page and its issues; ranges, never workspace links or exact pins", () => {
    const manifest = JSON.parse(packedFile(tarball(), "package.json")) as Manifest;
    expect(manifest.license).toBe("MIT");
    expect(manifest.repository).toEqual({ type: "git", url: `git+${REPOSITORY}.git`, directory: path.relative(REPO, pkg.directory).split(path.sep).join("/") });
    expect(manifest.homepage).toMatch(new RegExp(`^${REPOSITORY}/blob/main/docs/[a-z0-9/-]+\\.md$`));
    expect(fs.existsSync(path.join(REPO, manifest.homepage!.slice(`${REPOSITORY}/blob/main/`.length)))).toBe(true);
    expect(manifest.bugs).toEqual({ url: `${REPOSITORY}/issues` });
    for (const [dependency, range] of Object.entries({ ...manifest.dependencies, ...manifest.peerDependencies })) {
      expect(range, dependency).not.toMatch(/^workspace:/);
      expect(range, `${dependency} ${range}: an exact pin installs a second copy next to the user's`).not.toMatch(/^\d+\.\d+\.\d+$/);
    }
  });
});

describe("the @sourced/registry tarball", () => {
  it("carries the data view's page once (esm/data-view.js, which both builds import)", () => {
    const tarball = packWorkspace()["@sourced/registry"]!;
    const files = tarballFiles(tarball);
    expect(files.filter((file) => /(^|\/)data-view\./.test(file)).sort()).toEqual(["esm/data-view.d.ts", "esm/data-view.js"]);
    // Every file's text, one after the other: the page's title appears in exactly one of them, once.
    const everything = spawnSync("tar", ["-xzOf", tarball], { encoding: "utf8", maxBuffer: 64 << 20 });
    expect(everything.status).toBe(0);
    expect(everything.stdout.split("<title>sourced data view</title>")).toHaveLength(2);
  });
});

describe("the documented install lines", () => {
  const documents = ["README.md", ...fs.readdirSync(path.join(REPO, "docs"), { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".md")).map((file) => `docs/${file}`), ...workspacePackages().map((pkg) => path.relative(REPO, path.join(pkg.directory, "README.md")))];

  it("support or target no Node line older than 22 (Node 20 reached its end of life on 2026-04-30)", () => {
    // `Node.js ≥ 20.19`, `Node 20`, `target: "node20"`; a measurement's record (`Node v20.20.2`) may say what it ran on.
    const stale = documents.flatMap((document) =>
      fs
        .readFileSync(path.join(REPO, document), "utf8")
        .split("\n")
        .flatMap((line, index) => (/\bnode(\.js)? ?(≥ ?|>= ?)?(1\d|20|21)\b|\bnode(1\d|20|21)\b/i.test(line) ? [`${document}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(stale).toEqual([]);
  });

  it("pin TypeScript and ts-patch wherever they install them: a bare `typescript` is TypeScript 7", () => {
    const lines = documents.flatMap((document) =>
      fs
        .readFileSync(path.join(REPO, document), "utf8")
        .split("\n")
        .filter((line) => /^\s*(npm (install|i)|pnpm add|yarn add)\b/.test(line))
        .map((line) => ({ document, line: line.trim() })),
    );
    expect(lines.length).toBeGreaterThan(0);
    const unpinned = lines.filter(({ line }) => line.split(/\s+/).some((word) => word === "typescript" || word === "ts-patch" || word === "typescript@latest"));
    expect(unpinned).toEqual([]);
  });
});

describe("links in code", () => {
  /** Every source file a package ships or builds from: its src/ and the pages' sources, not its tests. */
  const sources = workspacePackages().flatMap((pkg) =>
    ["src", "bin", "view", "preview-page"].flatMap((folder) => {
      const directory = path.join(pkg.directory, folder);
      if (!fs.existsSync(directory)) return [];
      return fs
        .readdirSync(directory, { recursive: true, encoding: "utf8" })
        .filter((file) => /\.(?:[cm]?[jt]s|tsx)$/.test(file))
        .map((file) => path.join(directory, file));
    }),
  );

  /** Where a link into the repository points, or why it points nowhere. */
  function brokenLink(link: string): string | undefined {
    if (!link.startsWith(`${REPOSITORY}/`)) return `names another repository than ${REPOSITORY}`;
    const blob = /^\/(?:blob|tree)\/main\/([^#?]*)/.exec(link.slice(REPOSITORY.length));
    if (blob === null) return undefined;
    return fs.existsSync(path.join(REPO, blob[1]!)) ? undefined : `${blob[1]!} is no file or folder of the repository`;
  }

  it("name this repository, and a file or folder of it that exists", () => {
    expect(sources.length).toBeGreaterThan(50);
    const links = sources.flatMap((file) =>
      [...fs.readFileSync(file, "utf8").matchAll(/https:\/\/github\.com\/[^\s"'`)<>\]]+/g)].map((match) => ({ at: path.relative(REPO, file), link: match[0] })),
    );
    expect(links.length).toBeGreaterThan(0);
    expect(links.flatMap(({ at, link }) => (brokenLink(link) === undefined ? [] : [`${at}: ${link}: ${brokenLink(link)!}`]))).toEqual([]);
  });

  it("each ESLint rule's docs URL (meta.docs.url, built from a base) names its page in docs/rules/", async () => {
    const plugin = (await import(path.join(REPO, "packages/eslint-plugin/dist/index.js"))) as { default?: { rules: Record<string, { meta: { docs?: { url?: string } } }> }; rules?: Record<string, { meta: { docs?: { url?: string } } }> };
    const rules = Object.entries((plugin.rules ?? plugin.default?.rules)!);
    expect(rules.length).toBeGreaterThan(0);
    for (const [name, rule] of rules) {
      expect(rule.meta.docs?.url, name).toBe(`${REPOSITORY}/blob/main/docs/rules/${name}.md`);
      expect(brokenLink(rule.meta.docs!.url!), name).toBeUndefined();
    }
  });
});
