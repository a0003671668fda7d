import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import commonjsPlugin from "@rollup/plugin-commonjs";
import { rspack, type RspackOptions } from "@rspack/core";
import * as esbuild from "esbuild";
import { rolldown } from "rolldown";
import { rollup, type RollupLog } from "rollup";
import esbuildForRollup from "rollup-plugin-esbuild";
import { build as viteBuild, createLogger } from "vite";
import sourcedEsbuild from "@sourced/unplugin/esbuild";
import sourcedRolldown from "@sourced/unplugin/rolldown";
import sourcedRollup from "@sourced/unplugin/rollup";
import sourcedRspack from "@sourced/unplugin/rspack";
import sourcedVite from "@sourced/unplugin/vite";
import type { SourcedPluginOptions } from "@sourced/unplugin";

/*
 * Real bundlers, in process, on the example servers of fixtures/projects (the seed's cities by
 * default). Bundles are written under the example's out/ (ignored by git): their dependencies stay
 * external and resolve from the example's node_modules at run time, as a server bundled with
 * `packages: "external"`.
 */

export const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
export const CITIES = path.join(ROOT, "fixtures", "projects", "cities");
export const CITIES_TSCONFIG = path.join(CITIES, "tsconfig.json");
export const OUT = path.join(CITIES, "out");
/** An entry that starts the example in any output format (its `server.ts` starts only as a CommonJS main module). */
export const SERVE_ENTRY = path.join(import.meta.dirname, "entries", "serve.ts");

/** A dependency (bare specifier or `node:`): left to Node at run time. */
export const isPackage = (id: string): boolean => !id.startsWith(".") && !path.isAbsolute(id) && !id.startsWith("\0");

export type Bundler = "esbuild" | "vite" | "rollup" | "rolldown" | "rspack";

/** What a build said, located as the bundler located it, and the bundle it wrote (none when it failed). */
export interface BuildReport {
  readonly failed: boolean;
  /** Every message of ours the build printed: `file:line:column code` (1-based, file relative to the example). */
  readonly errors: readonly string[];
  readonly warnings: readonly string[];
  /** The full text of each of our messages, errors then warnings. */
  readonly texts: readonly string[];
  readonly bundle: string;
}

export interface BuildRequest {
  readonly bundler: Bundler;
  /** The example's directory: CITIES by default. */
  readonly project?: string;
  /** Directory name under the example's out/. */
  readonly name: string;
  /** The entry: the example's `src/server.ts` by default. */
  readonly entry?: string;
  readonly format?: "cjs" | "esm";
  readonly minify?: boolean;
  /** The plugin's options; `false`: built without the plugin. */
  readonly plugin: SourcedPluginOptions | false;
  /** Let CommonJS input through (tspc output) for Rollup. */
  readonly commonjsInput?: boolean;
}

// Its types describe a CommonJS module; the ES module Node loads exports the plugin as default.
const commonjs = commonjsPlugin as unknown as typeof commonjsPlugin.default;

const CODE = /\bSRC(\d{5})\b/;

/** `src/tools/forecast.ts:9:24 SRC92002` from a message's text: how the plugin words its location. */
function summarize(text: string, project: string): string {
  const match = /(?:^|\s|\n)((?:[\w.-]+\/)*[\w.-]+\.[cm]?[jt]sx?):(\d+):(\d+) - (?:error|warning) (SRC\d{5})/.exec(text);
  if (match === null) return text.split("\n")[0]!;
  const file = path.relative(project, path.resolve(ROOT, match[1]!)).split(path.sep).join("/");
  return `${path.basename(match[1]!) === match[1] ? match[1] : file}:${match[2]}:${match[3]} ${match[4]}`;
}

/** Builds one bundle; the plugin's messages are read from the bundler's own channels. */
export async function bundle(request: BuildRequest): Promise<BuildReport> {
  const project = request.project ?? CITIES;
  const directory = path.join(project, "out", request.name);
  fs.rmSync(directory, { recursive: true, force: true });
  fs.mkdirSync(directory, { recursive: true });
  const format = request.format ?? "cjs";
  const bundleFile = path.join(directory, format === "esm" ? "server.mjs" : "server.cjs");
  const entry = request.entry ?? path.join(project, "src", "server.ts");
  const options: SourcedPluginOptions | undefined = request.plugin === false ? undefined : { tsconfig: path.join(project, "tsconfig.json"), ...request.plugin };
  const errors: string[] = [];
  const warnings: string[] = [];
  let failed = false;
  const ours = (text: string) => CODE.test(text);

  switch (request.bundler) {
    case "esbuild": {
      const located = (message: esbuild.Message) =>
        message.location === null
          ? message.text
          : `${path.relative(project, path.resolve(message.location.file)).split(path.sep).join("/")}:${message.location.line}:${message.location.column + 1} ${CODE.exec(message.text)?.[0] ?? ""}`;
      try {
        const result = await esbuild.build({
          absWorkingDir: project,
          entryPoints: [entry],
          bundle: true,
          platform: "node",
          target: "node22",
          format,
          packages: "external",
          outfile: bundleFile,
          minify: request.minify ?? false,
          sourcemap: true,
          logLevel: "silent",
          plugins: options === undefined ? [] : [sourcedEsbuild(options)],
        });
        for (const warning of result.warnings) if (ours(warning.text)) warnings.push(`${located(warning)}\n${warning.text}`);
      } catch (error) {
        failed = true;
        const failure = error as esbuild.BuildFailure;
        for (const message of failure.errors ?? []) errors.push(`${located(message)}\n${message.text}`);
        for (const message of failure.warnings ?? []) if (ours(message.text)) warnings.push(`${located(message)}\n${message.text}`);
      }
      break;
    }
    case "vite": {
      const logger = createLogger("silent");
      logger.warn = (message) => {
        if (ours(message)) warnings.push(message);
      };
      try {
        await viteBuild({
          root: project,
          configFile: false,
          logLevel: "silent",
          customLogger: logger,
          plugins: options === undefined ? [] : [sourcedVite(options)],
          build: {
            outDir: directory,
            emptyOutDir: false,
            minify: request.minify ?? false,
            sourcemap: true,
            lib: { entry, formats: [format === "esm" ? "es" : "cjs"], fileName: () => path.basename(bundleFile) },
            rolldownOptions: { external: isPackage },
          },
        });
      } catch (error) {
        failed = true;
        errors.push(String((error as Error).message));
      }
      break;
    }
    case "rollup": {
      const onLog = (_level: string, log: RollupLog) => {
        if (ours(log.message)) warnings.push(log.message);
      };
      try {
        const built = await rollup({
          input: entry,
          external: isPackage,
          onLog,
          plugins: [
            ...(options === undefined ? [] : [sourcedRollup(options)]),
            esbuildForRollup({ target: "node22", minify: request.minify ?? false }),
            ...(request.commonjsInput ? [commonjs({ extensions: [".js"] })] : []),
          ],
        });
        await built.write({ file: bundleFile, format: format === "esm" ? "es" : "cjs", sourcemap: true });
        await built.close();
      } catch (error) {
        failed = true;
        errors.push(String((error as Error).message));
      }
      break;
    }
    case "rolldown": {
      try {
        const built = await rolldown({
          input: entry,
          external: isPackage,
          platform: "node",
          cwd: project,
          onLog: (_level, log) => {
            if (ours(log.message)) warnings.push(log.message);
          },
          plugins: options === undefined ? [] : [sourcedRolldown(options)],
        });
        await built.write({ file: bundleFile, format: format === "esm" ? "es" : "cjs", sourcemap: true, minify: request.minify ?? false });
        await built.close();
      } catch (error) {
        failed = true;
        errors.push(String((error as Error).message));
      }
      break;
    }
    case "rspack": {
      const config: RspackOptions = {
        context: project,
        entry: entry,
        target: "node22",
        mode: "none",
        devtool: "source-map",
        output: { path: directory, filename: path.basename(bundleFile), library: { type: "commonjs2" } },
        externals: [({ request: id }, callback) => (id !== undefined && isPackage(id) ? callback(undefined, `commonjs ${id}`) : callback())],
        resolve: { extensions: [".ts", ".js"], extensionAlias: { ".js": [".ts", ".js"] } },
        module: { rules: [{ test: /\.ts$/, loader: "builtin:swc-loader", options: { jsc: { parser: { syntax: "typescript" }, target: "es2022" } } }] },
        optimization: { minimize: request.minify ?? false },
        plugins: options === undefined ? [] : [sourcedRspack(options)],
      };
      const stats = await new Promise<import("@rspack/core").Stats>((resolve, reject) =>
        rspack(config).run((error, result) => (error ? reject(error) : resolve(result!))),
      );
      const json = stats.toJson({ all: false, errors: true, warnings: true });
      failed = stats.hasErrors();
      for (const error of json.errors ?? []) errors.push(error.message);
      for (const warning of json.warnings ?? []) if (ours(warning.message)) warnings.push(warning.message);
      break;
    }
  }
  const texts = [...errors, ...warnings];
  const located = (text: string) => (/^[\w./-]+:\d+:\d+ SRC\d{5}\n/.test(text) ? text.split("\n")[0]! : summarize(text, project));
  return { failed, errors: errors.filter(ours).map(located), warnings: warnings.map(located), texts, bundle: failed ? "" : bundleFile };
}

/**
 * A copy of the example's sources and tsconfig under OUT/<name> (its dependencies resolve from the
 * example's node_modules), with the type its fixed forecast tool needs imported last, so no line
 * moves.
 */
export function copyExample(name: string): string {
  const directory = path.join(OUT, name);
  fs.rmSync(directory, { recursive: true, force: true });
  fs.cpSync(path.join(CITIES, "src"), path.join(directory, "src"), { recursive: true });
  const base = path.relative(directory, path.join(CITIES, "..", "..", "..", "tsconfig.base.json")).split(path.sep).join("/");
  fs.writeFileSync(
    path.join(directory, "tsconfig.json"),
    JSON.stringify({ extends: base, compilerOptions: { composite: false, declaration: false, declarationMap: false, rootDir: "src", noEmit: true }, include: ["src"] }),
  );
  const forecast = path.join(directory, "src/tools/forecast.ts");
  fs.appendFileSync(forecast, `import type { DataToolOutput } from "@sourced/registry";\n`);
  return directory;
}

/** An example's tspc build (the transformer: stamped, stripped, names pinned) into its out/tspc. */
export function tspcBuild(project: string = CITIES): string {
  const outDir = path.join(project, "out", "tspc");
  fs.rmSync(outDir, { recursive: true, force: true });
  const tspc = path.join(project, "node_modules", "ts-patch", "bin", "tspc.js");
  const run = spawnSync(process.execPath, [tspc, "-p", project, "--outDir", outDir, "--sourceMap", "false"], { cwd: project, encoding: "utf8" });
  // Each example's one non-compliant tool fails the build (status 2) after everything is emitted.
  if (!fs.existsSync(path.join(outDir, "server.js"))) throw new Error(`tspc emitted nothing:\n${run.stdout}${run.stderr}`);
  return outDir;
}

/** An entry in cities' tspc output that starts the server without `require.main === module` (see SERVE_ENTRY). */
export function writeCitiesServeEntry(outDir: string): string {
  const entry = path.join(outDir, "serve.js");
  fs.writeFileSync(entry, `"use strict";\nconst { registry } = require("./registry.js");\nrequire("./tools/index.js");\nregistry.serveStdio();\n`);
  return entry;
}

/** The tools a bundled server serves, asked by the SDK's real Client over stdio, and what it logged. */
export async function listTools(bundleFile: string): Promise<{ tools: string[]; stderr: string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: ["--enable-source-maps", bundleFile], cwd: path.dirname(bundleFile), stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const client = new Client({ name: "unplugin-test", version: "1.0.0" });
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`${bundleFile} did not start: ${(error as Error).message}\n${stderr}`);
  }
  try {
    const { tools } = await client.listTools();
    return { tools: tools.map((tool) => tool.name).sort(), stderr };
  } finally {
    await client.close();
  }
}

/** The refusals requireVerified logged: the tool names it would not serve. */
export function refusedTools(stderr: string): string[] {
  return [...stderr.matchAll(/tool "([^"]+)" \([^)]*\) was not registered: requireVerified is on/g)].map((match) => match[1]!).sort();
}
