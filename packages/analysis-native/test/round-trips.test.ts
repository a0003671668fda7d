import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyzeProgram, type ProgramPort } from "@sourced/analysis";
import { loadNativeTypeScript } from "../src/index";

/*
 * What a file costs in round trips to TypeScript 7. A question asked once per file outside the
 * file's batched requests is a round trip per file, which a project pays file after file; the
 * questions of a file's registrations belong in its batch (`prefetch`). Counted at the channel the
 * API writes every request to, on generated projects that differ only in how many files register.
 */

const ROOT = path.resolve(__dirname, "../../..");
const TS7 = path.join(ROOT, "fixtures/ts7/node_modules/typescript");

interface Channel {
  prototype: { requestBytesSync(this: unknown, method: string, payload: unknown): unknown };
}

/** Requests by method while `run` runs; with `sent`, each request's payload as text, by method. */
async function requestsDuring(run: () => void, sent?: Map<string, string[]>): Promise<Map<string, number>> {
  const { SyncRpcChannel } = (await import(pathToFileURL(path.join(TS7, "dist/api/syncChannel.js")).href)) as { SyncRpcChannel: Channel };
  const counts = new Map<string, number>();
  const original = SyncRpcChannel.prototype.requestBytesSync;
  SyncRpcChannel.prototype.requestBytesSync = function (method, payload) {
    counts.set(method, (counts.get(method) ?? 0) + 1);
    if (sent !== undefined) {
      const text = typeof payload === "string" ? payload : Buffer.from(payload as Uint8Array).toString("latin1");
      sent.set(method, [...(sent.get(method) ?? []), text]);
    }
    return original.call(this, method, payload);
  };
  try {
    run();
  } finally {
    SyncRpcChannel.prototype.requestBytesSync = original;
  }
  return counts;
}

let scratch: string;

/**
 * A project of `files` modules, each registering three tools on the project's one registry, each
 * with its hints written in place (`annotations: { … }`, as most tools declare them), one with
 * its input a zod object (`input: z.object({ … })`).
 */
function project(files: number): string {
  const directory = fs.mkdtempSync(path.join(scratch, `files${files}-`));
  fs.mkdirSync(path.join(directory, "node_modules", "@sourced"), { recursive: true });
  fs.symlinkSync(path.join(ROOT, "packages", "registry"), path.join(directory, "node_modules", "@sourced", "registry"), "dir");
  fs.symlinkSync(fs.realpathSync(path.join(ROOT, "packages", "registry", "node_modules", "zod")), path.join(directory, "node_modules", "zod"), "dir");
  const compilerOptions = { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, skipLibCheck: true, types: [], noEmit: true };
  fs.writeFileSync(path.join(directory, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["*.ts"] }));
  fs.writeFileSync(path.join(directory, "registry.ts"), `import { createRegistry } from "@sourced/registry";\nexport const registry = createRegistry({ name: "trips", version: "1.0.0" });\n`);
  for (let file = 0; file < files; file++) {
    const tools = [0, 1, 2].map(
      (tool) =>
        `export const t${file}_${tool} = registry.tool({ description: "Tool ${tool} of module ${file}.", annotations: { readOnlyHint: ${tool !== 1}, title: "Tool ${tool} of ${file}" }` +
        `${tool === 2 ? `, input: z.object({ limit: z.number().max(${file + 1}) })` : ""} })(\n` +
        `  function t${file}_${tool}(${tool === 2 ? "input: { limit: number }" : ""}): DataToolOutput {\n` +
        `    return { content: [{ type: "text", text: "${file}.${tool}" }], structuredContent: { sources: ["https://data.example.org/${file}"] } };\n  },\n);\n`,
    );
    fs.writeFileSync(path.join(directory, `m${file}.ts`), `import type { DataToolOutput } from "@sourced/registry";\nimport { z } from "zod";\nimport { registry } from "./registry.js";\n\n${tools.join("\n")}`);
  }
  return directory;
}

/**
 * `project(files)`, each module also holding what a module of records does: its records (an
 * array of an interface of its own), a helper that reads them, called by the next module's tools
 * (`m0Rows(1)`, each call a candidate registration) and handing its records to a shared generic
 * helper (`pick(m0Records, limit)`, an argument a decorator could escape through). Each tool reads
 * the neighbour's rows `calls` times.
 */
function projectWithRecords(files: number, calls = 1): string {
  const directory = project(files);
  fs.writeFileSync(path.join(directory, "shared.ts"), `export function pick<T>(records: readonly T[], limit: number): T[] {\n  return records.slice(0, limit);\n}\n`);
  for (let file = 0; file < files; file++) {
    const module = path.join(directory, `m${file}.ts`);
    const previous = (file + files - 1) % files;
    const read = `String(m${previous}Rows(1)) + `.repeat(calls);
    const tools = fs.readFileSync(module, "utf8").replaceAll(`text: "${file}.`, `text: ${read}"${file}.`);
    fs.writeFileSync(
      module,
      `import { pick } from "./shared.js";\n${previous === file ? "" : `import { m${previous}Rows } from "./m${previous}.js";\n`}${tools}\n` +
        `interface Record${file} {\n  readonly id: string;\n  readonly value: number;\n}\n\n` +
        `export const m${file}Records: readonly Record${file}[] = [{ id: "m${file}-0", value: ${file} }];\n\n` +
        `export function m${file}Rows(limit: number) {\n  return pick(m${file}Records, limit);\n}\n`,
    );
  }
  return directory;
}

/** Requests made reading and judging every module of `directory`'s project (opening it not counted). */
async function judged(directory: string): Promise<{ requests: Map<string, number>; locations: number; registrations: number; findings: number }> {
  const config = path.join(directory, "tsconfig.json");
  const session = loadNativeTypeScript(TS7).openSession([config], directory);
  try {
    const ports = session.project(config)!;
    let result: ReturnType<typeof analyzeProgram> | undefined;
    const sent = new Map<string, string[]>();
    const requests = await requestsDuring(() => {
      result = analyzeProgram(ports.syntax, ports.program, { sourceFiles: ports.candidateSources() });
    }, sent);
    // The nodes whose symbols the batches asked for, every file's.
    const locations = (sent.get("getSymbolsAtLocations") ?? []).reduce((sum, payload) => sum + (JSON.parse(payload) as { locations: unknown[] }).locations.length, 0);
    return { requests, locations, registrations: result!.registrations.length, findings: result!.findings.length };
  } finally {
    session.close();
  }
}

describe("round trips to TypeScript 7 per registering file", () => {
  beforeAll(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "sourced-round-trips-"));
  });
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it("asks nothing per file or per tool outside the file's batch: no single request grows with the files", async () => {
    // Among what once did: the receiver of `registry.tool` (its symbol and its type, asked once per
    // file), the type of each returned `structuredContent` literal (its keys, per tool), and the
    // type of each `annotations` literal, with its relation to the option's type (per tool), and
    // the callee of each `z.object(…)` input (its symbol; the call's own type is never asked).
    const small = await judged(project(2));
    const large = await judged(project(6));
    expect([small.registrations, small.findings]).toEqual([6, 0]);
    expect([large.registrations, large.findings]).toEqual([18, 0]);
    // Batched requests are one per file; the single ones must not depend on how many files register.
    // The metadata of a file (is it a library's, a default library?) is not asked of the project's own files.
    for (const single of ["getSymbolAtLocation", "getTypeOfSymbol", "getTypeAtLocation", "isTypeAssignableTo", "getSourceFileMetadata"]) {
      expect(`${single}: ${large.requests.get(single) ?? 0}`).toBe(`${single}: ${small.requests.get(single) ?? 0}`);
    }
    // The program's list of files, every name in it, is asked once (the files and the module graph read it).
    expect(large.requests.get("getSourceFileNames")).toBe(1);
  }, 60_000);

  it("asks nothing per module of records about its records' array type, nor about the properties of its helper's function type", async () => {
    // Each once did: `ReadonlyArray<Record0>`'s `tool` member (is the array handed to `pick` a
    // registry?), and the symbol and properties of `m0Rows`' type (is the helper called a decorator?).
    const small = await judged(projectWithRecords(2));
    const large = await judged(projectWithRecords(6));
    expect([small.registrations, small.findings]).toEqual([6, 0]);
    expect([large.registrations, large.findings]).toEqual([18, 0]);
    for (const single of ["getPropertyOfType", "getPropertiesOfType", "getSymbolOfType"]) {
      expect(`${single}: ${large.requests.get(single) ?? 0}`).toBe(`${single}: ${small.requests.get(single) ?? 0}`);
    }
  }, 60_000);

  it("asks nothing per module about what its helper returns when the helper returns what it calls", async () => {
    // `m0Rows(limit)` returns `pick(m0Records, limit)`, without an annotation: its return type,
    // inferred from its body, was asked once per helper (its signatures, then their return type).
    const small = await judged(projectWithRecords(2));
    const large = await judged(projectWithRecords(6));
    for (const single of ["getSignaturesOfType", "getReturnTypeOfSignature"]) {
      expect(`${single}: ${large.requests.get(single) ?? 0}`).toBe(`${single}: ${small.requests.get(single) ?? 0}`);
    }
  }, 60_000);

  it("fetches a name's symbol once per file, however many times the file reads it", async () => {
    // Each tool reads its neighbour's rows once, or three times: the same names (`String`,
    // `m0Rows`), more references. Neither the batches nor any single request grow with them.
    const once = await judged(projectWithRecords(3, 1));
    const thrice = await judged(projectWithRecords(3, 3));
    expect([thrice.registrations, thrice.findings]).toEqual([once.registrations, once.findings]);
    expect(thrice.locations).toBe(once.locations);
    expect(Object.fromEntries(thrice.requests)).toEqual(Object.fromEntries(once.requests));
  }, 60_000);
});

describe("round trips to TypeScript 7 for the libraries a project imports", () => {
  it("fetches no library's syntax, nor asks about the compiler's own library files, when they cannot reach the registry", async () => {
    // One module registers; the others import zod (a library that cannot reach the registry) or
    // nothing, so the module graph is read past the project's own files (reach.ts).
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), "sourced-round-trips-libraries-"));
    try {
      fs.mkdirSync(path.join(directory, "node_modules", "@sourced"), { recursive: true });
      fs.symlinkSync(path.join(ROOT, "packages", "registry"), path.join(directory, "node_modules", "@sourced", "registry"), "dir");
      fs.symlinkSync(fs.realpathSync(path.join(ROOT, "packages", "registry", "node_modules", "zod")), path.join(directory, "node_modules", "zod"), "dir");
      const compilerOptions = { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, skipLibCheck: true, types: [], noEmit: true };
      const files: Record<string, string> = {
        "tsconfig.json": JSON.stringify({ compilerOptions, include: ["*.ts"] }),
        "registry.ts": `import { createRegistry } from "@sourced/registry";\nexport const registry = createRegistry({ name: "libraries", version: "1.0.0" });\n`,
        "tools.ts": `import type { DataToolOutput } from "@sourced/registry";\nimport { registry } from "./registry.js";\nexport const t = registry.tool()(function t(): DataToolOutput {\n  return { content: [{ type: "text", text: "t" }], structuredContent: { sources: ["https://data.example.org/t"] } };\n});\n`,
        "schemas.ts": `import { z } from "zod";\nexport const city = z.object({ city: z.string() });\n`,
        "plain.ts": `export const plain = 1;\n`,
      };
      for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(directory, name), text);
      const config = path.join(directory, "tsconfig.json");
      const session = loadNativeTypeScript(TS7).openSession([config], directory);
      const sent = new Map<string, string[]>();
      try {
        const ports = session.project(config)!;
        const sources = ports.candidateSources();
        const zodFiles = ports.program.getSourceFileNames!().filter((fileName) => /[\\/]zod[\\/]/.test(fileName));
        const libraryFiles = ports.program.getSourceFileNames!().filter((fileName) => /[\\/]lib\.[^/\\]*\.d\.ts$/.test(fileName));
        expect(zodFiles.length).toBeGreaterThan(20);
        expect(libraryFiles.length).toBeGreaterThan(5);
        // The files whose text is read from disk, to tell the libraries that cannot reach the registry.
        const textsRead: string[] = [];
        const program: ProgramPort = {
          ...ports.program,
          readFileText: (fileName) => {
            textsRead.push(fileName);
            return ports.program.readFileText!(fileName);
          },
        };
        let result: ReturnType<typeof analyzeProgram> | undefined;
        await requestsDuring(() => {
          result = analyzeProgram(ports.syntax, program, { sourceFiles: sources });
        }, sent);
        expect(result!.registrations.map((registration) => registration.tool)).toEqual(["t"]);
        const asked = (method: string, files: readonly string[]): string[] => files.filter((fileName) => (sent.get(method) ?? []).some((payload) => payload.includes(JSON.stringify(fileName).slice(1, -1))));
        expect(asked("getSourceFile", zodFiles)).toEqual([]);
        expect(asked("getSourceFileMetadata", zodFiles)).toEqual([]);
        expect(asked("getSourceFileMetadata", libraryFiles)).toEqual([]);
        // The compiler's own library files are told by where they are: not even their text is read.
        expect(libraryFiles.filter((fileName) => textsRead.includes(fileName))).toEqual([]);
        // Zod's were read from their text instead, and so left unfetched above.
        expect(zodFiles.every((fileName) => textsRead.includes(fileName))).toBe(true);
        // The registry's own declaration files, which declare the mark, are still read.
        expect((sent.get("getSourceFile") ?? []).filter((payload) => /packages[\\/]registry[\\/]dist[\\/]/.test(payload)).length).toBeGreaterThan(5);
      } finally {
        session.close();
      }
    } finally {
      fs.rmSync(directory, { recursive: true, force: true });
    }
  }, 60_000);
});
