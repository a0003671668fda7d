import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import * as esbuild from "esbuild";
import { createServer } from "vite";
import { FINDING_KINDS } from "@sourced/analysis";
import sourcedEsbuild from "@sourced/unplugin/esbuild";
import sourcedVite from "@sourced/unplugin/vite";
import { afterAll, expect, test } from "vitest";
import { CITIES, copyExample, ROOT } from "./support.js";

/*
 * Watch and dev mode on a copy of the example (under its out/, so its dependencies resolve): the
 * non-compliant tool is reported, fixed (gone), broken again (back), never stale. And a copy
 * outside the repository, its registry not installed until the watch runs.
 */

const BROKEN = "function forecast(): CallToolResult {\n    return { content: [{ type: \"text\", text: \"Tomorrow will be sunny.\" }] };";
const FIXED =
  'function forecast(): DataToolOutput {\n    return { content: [{ type: "text", text: "Tomorrow will be sunny." }], structuredContent: { sources: ["https://example.org/weather"] } };';
const FORECAST = `src/tools/forecast.ts:9:24 SRC${FINDING_KINDS["not-data-tool-output"].code}`;

/** Replaces `from` by `to` in the copy's forecast.ts; the line of the finding does not move. */
function edit(directory: string, from: string, to: string): void {
  const file = path.join(directory, "src/tools/forecast.ts");
  const text = fs.readFileSync(file, "utf8");
  if (!text.includes(from)) throw new Error(`forecast.ts does not contain ${from}`);
  fs.writeFileSync(file, text.replace(from, to));
}

const stops: Array<() => Promise<void>> = [];
const made: string[] = [];
afterAll(async () => {
  for (const stop of stops) await stop();
  for (const directory of made) fs.rmSync(directory, { recursive: true, force: true });
});

/**
 * An esbuild context on `directory` with the plugin, not yet watching: `next()` is the next
 * build's result, `located` its sourced findings as `file:line:col SRCcode`.
 */
async function watching(directory: string) {
  const results: esbuild.BuildResult[] = [];
  let notify: (() => void) | undefined;
  const next = () =>
    new Promise<esbuild.BuildResult>((resolve) => {
      const count = results.length;
      notify = () => {
        if (results.length > count) resolve(results[results.length - 1]!);
      };
    });
  const context = await esbuild.context({
    absWorkingDir: directory,
    entryPoints: ["src/server.ts"],
    bundle: true,
    platform: "node",
    packages: "external",
    outfile: path.join(directory, "dist/server.cjs"),
    logLevel: "silent",
    plugins: [
      sourcedEsbuild(),
      {
        name: "results",
        setup(build) {
          build.onEnd((result) => {
            results.push(result);
            notify?.();
          });
        },
      },
    ],
  });
  stops.push(() => context.dispose());
  const located = (result: esbuild.BuildResult) =>
    result.errors
      .filter((m) => m.pluginName === "sourced" && m.location !== null)
      .map((m) => `${path.relative(directory, path.resolve(m.location!.file)).split(path.sep).join("/")}:${m.location!.line}:${m.location!.column + 1} ${/SRC\d+/.exec(m.text)?.[0]}`);
  return { context, next, located };
}

test("esbuild's context API in watch mode: reported, gone once fixed, back once broken", async () => {
  const directory = copyExample("watch-esbuild");
  const { context, next, located } = await watching(directory);

  const first = next();
  await context.watch();
  expect(located(await first)).toEqual([FORECAST]);

  const fixed = next();
  edit(directory, BROKEN, FIXED);
  expect(located(await fixed)).toEqual([]);

  const broken = next();
  edit(directory, FIXED, BROKEN);
  expect(located(await broken)).toEqual([FORECAST]);
}, 120_000);

test("Vite's dev server: the finding fails its file's transform (the overlay), gone once fixed, back once broken", async () => {
  const directory = copyExample("watch-vite");
  const server = await createServer({
    root: directory,
    configFile: false,
    logLevel: "silent",
    appType: "custom",
    server: { middlewareMode: true, hmr: false, ws: false },
    plugins: [sourcedVite()],
  });
  stops.push(() => server.close());
  const forecast = path.join(directory, "src/tools/forecast.ts");
  const changed = () =>
    new Promise<void>((resolve) => {
      const listener = (file: string) => {
        if (path.resolve(file) !== forecast) return;
        server.watcher.off("change", listener);
        resolve();
      };
      server.watcher.on("change", listener);
    });
  const transform = async () => {
    try {
      const result = await server.transformRequest("/src/tools/forecast.ts");
      return { code: result?.code ?? "", error: undefined };
    } catch (error) {
      const { loc, id } = error as { loc?: { line: number; column: number }; id?: string };
      return { code: "", error: `${path.relative(directory, id ?? "")}:${loc?.line}:${(loc?.column ?? 0) + 1} ${(error as Error).message}` };
    }
  };

  /** A transform must answer: a hang fails here, saying so, rather than at the test's timeout. */
  const answered = <T>(pending: Promise<T>): Promise<T> =>
    Promise.race([pending, delay(30_000).then(() => Promise.reject(new Error("Vite's transformRequest did not answer in 30 s")))]);
  /**
   * Edits forecast.ts and waits until Vite's watcher reports it. On a loaded machine a file event
   * can be missed; the file is then written again (same text), a few times at most.
   */
  const editSeen = async (from: string, to: string): Promise<void> => {
    for (let attempt = 1; attempt <= 5; attempt++) {
      const change = changed();
      if (attempt === 1) edit(directory, from, to);
      else fs.writeFileSync(forecast, fs.readFileSync(forecast, "utf8"));
      if (await Promise.race([change.then(() => true), delay(5_000).then(() => false)])) return;
    }
    throw new Error("Vite's watcher never reported the edit of forecast.ts");
  };

  const first = await answered(transform());
  // The watcher scans the tree in the background: edit only once it watches the file.
  for (let tries = 0; !(server.watcher.getWatched()[path.dirname(forecast)] ?? []).includes("forecast.ts"); tries++) {
    if (tries > 200) throw new Error("Vite's watcher never watched forecast.ts");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(first.error).toContain(`${FORECAST.split(" ")[0]} `);
  expect(first.error).toContain("Tool 'forecast' is declared to return 'CallToolResult'");

  await editSeen(BROKEN, FIXED);
  const fixed = await answered(transform());
  expect(fixed.error).toBeUndefined();
  expect(fixed.code).toContain('name: { value: "forecast" }'); // now stamped, its name pinned

  await editSeen(FIXED, BROKEN);
  const broken = await answered(transform());
  expect(broken.error).toContain("Tool 'forecast' is declared to return 'CallToolResult'");
}, 180_000);

/**
 * A copy of the example outside the repository, so nothing above it resolves a package: its
 * dependencies linked from the example's node_modules, the registry not installed yet.
 */
function copyExampleWithoutRegistry(): string {
  const directory = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sourced-watch-")));
  made.push(directory);
  fs.cpSync(path.join(CITIES, "src"), path.join(directory, "src"), { recursive: true });
  fs.writeFileSync(
    path.join(directory, "tsconfig.json"),
    JSON.stringify({
      extends: path.join(ROOT, "tsconfig.base.json"),
      compilerOptions: { composite: false, declaration: false, declarationMap: false, rootDir: "src", noEmit: true, types: [] },
      include: ["src"],
    }),
  );
  for (const name of ["typescript", "zod", "@modelcontextprotocol/server"]) {
    fs.mkdirSync(path.dirname(path.join(directory, "node_modules", name)), { recursive: true });
    fs.symlinkSync(fs.realpathSync(path.join(CITIES, "node_modules", name)), path.join(directory, "node_modules", name), "dir");
  }
  return directory;
}

test("esbuild's watch mode: the registry not installed is reported; installed meanwhile, the next rebuild judges the tools", async () => {
  const directory = copyExampleWithoutRegistry();
  const { context, next, located } = await watching(directory);
  const unresolved = (result: esbuild.BuildResult) =>
    result.errors
      .filter((m) => m.text.includes("cannot resolve '@sourced/registry'"))
      .map((m) => path.relative(directory, path.resolve(m.location!.file)).split(path.sep).join("/"))
      .sort();

  const first = next();
  await context.watch();
  expect(unresolved(await first)).toEqual(["src/registry.ts", "src/tools/list-cities.ts", "src/tools/population.ts"]);

  // Installed while the watch runs (as pnpm links it); esbuild watches no node_modules, so the
  // rebuild comes with the next edit, here of a file that does not import the registry.
  fs.mkdirSync(path.join(directory, "node_modules", "@sourced"));
  fs.symlinkSync(path.join(ROOT, "packages", "registry"), path.join(directory, "node_modules", "@sourced", "registry"), "dir");
  const rebuilt = next();
  fs.appendFileSync(path.join(directory, "src/data.ts"), "// edited\n");
  const judged = await rebuilt;
  expect(unresolved(judged)).toEqual([]);
  expect(located(judged)).toEqual([FORECAST]);
}, 120_000);
