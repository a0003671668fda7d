// Deterministic generator of synthetic sourced projects, so the checker does real work:
// modules that import each other, shared types and aliases, one registry module, a platform
// wrapper, tools in call and decorator form, and ~10% non-compliant registrations of varied kinds.
//
//   node bench/generate.mjs --files 2000 --tools 10000 --seed 1 [--shape tools|realistic] [--hints] [--zod-objects] [--out bench/out]
//
// Two shapes: `tools` (every module registers tools) and `realistic` (1 module in 10 does; the
// rest is ordinary code, services, types and helpers, that imports ordinary code and is imported
// by the tools). The same (files, tools, seed, shape) always gives the same bytes. Each project also gets a
// manifest.json with the findings every front-end must report, so a benchmark that silently
// checks nothing cannot pass for a fast one.
//
// Over 400 lines on purpose (benchmark tooling): most of it is the generated modules' own text,
// TypeScript templates read as the code they produce, and every module of a project is drawn in
// one pass over one random stream (generateProject), which a reader follows from top to bottom.

import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(BENCH_DIR, "..");
export const DEFAULT_OUT = path.join(BENCH_DIR, "out");

/** The share of registrations generated non-compliant. */
const NON_COMPLIANT_RATE = 0.1;

/** mulberry32: small, fast and the same on every platform. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const REGIONS = ["north", "south", "east", "west", "central"];
const NOUNS = ["cities", "rivers", "harvests", "flights", "schools", "clinics", "bridges", "markets", "stations", "parks"];
const METRICS = ["population", "length", "tonnes", "passengers", "pupils", "beds", "spans", "stalls", "platforms", "area"];

const pad = (n) => String(n).padStart(4, "0");
const capital = (text) => text[0].toUpperCase() + text.slice(1);

/**
 * The kinds of registration, compliant first. Each `write` returns the module text of one tool;
 * `finding` is the id every front-end must report for it (`undefined`: verified).
 */
const COMPLIANT = [
  { kind: "call", weight: 35 },
  { kind: "call-async-input", weight: 20 },
  { kind: "call-alias", weight: 10 },
  { kind: "decorator", weight: 20 },
  { kind: "platform", weight: 10 },
  { kind: "stored-decorator", weight: 5 },
];
const NON_COMPLIANT = [
  { kind: "missing-call", finding: "missing-annotation", weight: 3 },
  { kind: "missing-decorator", finding: "missing-annotation", weight: 2 },
  { kind: "wrong-string", finding: "not-data-tool-output", weight: 2 },
  { kind: "wrong-promise-rows", finding: "not-data-tool-output", weight: 1 },
  { kind: "wrong-platform", finding: "not-data-tool-output", weight: 1 },
  { kind: "escaped-decorator", finding: "unverifiable-registration", weight: 1 },
];

function pick(rand, choices) {
  const total = choices.reduce((sum, choice) => sum + choice.weight, 0);
  let at = rand() * total;
  for (const choice of choices) {
    at -= choice.weight;
    if (at < 0) return choice;
  }
  return choices[choices.length - 1];
}

// ---------------------------------------------------------------------------------------------
// Shared modules

const REGISTRY_TS = `import { createRegistry } from "@sourced/registry";

// Measure 9 runs one arm with the start-up check off: what running from source costs without it.
const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env;

/** The one registry every module registers its tools on. */
export const registry = createRegistry({ name: "bench", version: "1.0.0", ...(env?.["SOURCED_BENCH_STARTUP_CHECK"] === "off" ? { startupCheck: false } : {}) });
`;

const PLATFORM_TS = `import type { RegistersTool, ToolFunction, ToolOptions } from "@sourced/registry";
import { registry } from "./registry.js";

/** The platform's own registration function, marked so that every call of it is judged. */
export const defineTool: RegistersTool<<F extends ToolFunction>(fn: F, options?: ToolOptions) => F> = (fn, options) =>
  registry.tool(options)(fn);
`;

const TYPES_TS = `import type { DataToolOutput } from "@sourced/registry";

export type Region = ${REGIONS.map((r) => JSON.stringify(r)).join(" | ")};
export type Cell = string | number | boolean | null;
export type Row = Cell[];

/** Aliases the platform's tools annotate with. */
export type ToolResult = DataToolOutput;
export type AsyncToolResult = Promise<ToolResult>;

export interface Measured {
  readonly id: string;
  readonly region: Region;
  readonly value: number;
  readonly updated: string;
}
`;

const ANSWER_TS = `import type { DataToolOutput } from "@sourced/registry";
import type { Measured, Row } from "./types.js";

/** One answer for both readers: the sentence for the LLM, the table and sources for the gateway. */
export function answer(text: string, table: Row[], source: string): DataToolOutput {
  return {
    content: [{ type: "text", text }],
    structuredContent: { sources: [source], table },
  };
}

export function tableOf(header: string[], rows: Row[]): Row[] {
  return [header, ...rows.map((row) => row.slice(0, header.length))];
}

export function rowsOf(records: readonly Measured[], limit: number): Row[] {
  return [...records]
    .sort((a, b) => b.value - a.value)
    .slice(0, limit)
    .map((record) => [record.id, record.region, String(record.value)]);
}

export function total(records: readonly Measured[]): number {
  return records.reduce((sum, record) => sum + record.value, 0);
}
`;

// ---------------------------------------------------------------------------------------------
// One module

/** A module's three records, as lines of its data array. */
function recordLines(id, noun, rand) {
  return Array.from({ length: 3 }, (_, r) => {
    const region = REGIONS[Math.floor(rand() * REGIONS.length)];
    const value = 1000 + Math.floor(rand() * 1_000_000);
    return `  { kind: "${noun}", id: "${id}-${r}", region: "${region}", value: ${value}, updated: "2024-0${1 + (r % 9)}-1${r}" },`;
  });
}

function moduleText(index, toolCount, imports, rand, manifest, relativeFile) {
  const id = `m${pad(index)}`;
  const Id = capital(id);
  const noun = NOUNS[index % NOUNS.length];
  const metric = METRICS[(index * 7) % METRICS.length];
  const source = `https://data.example.org/${noun}/${id}`;
  const header = `["${capital(noun)}", "Region", "${capital(metric)}"]`;
  const renamed = index % 5 === 4; // some modules import the registry under another name
  const reg = renamed ? "tools" : "registry";

  const records = recordLines(id, noun, rand);

  const body = [];
  const classMembers = [];
  const tools = [];
  let usesZod = false;
  let usesPlatform = false;
  let usesAliases = false;
  let usesDataToolOutput = false;
  let usesRows = false;

  for (let t = 0; t < toolCount; t++) {
    const name = `${id}_${noun}_${t}`;
    const other = imports.length > 0 ? imports[t % imports.length] : undefined;
    const otherRows = other ? `...m${pad(other)}Rows(1)` : "";
    const rows = `...rowsOf(${id}Records, 3)${otherRows ? `, ${otherRows}` : ""}`;
    const text = `Top ${noun} by ${metric} (${id}, tool ${t}).`;
    const choice = rand() < NON_COMPLIANT_RATE ? pick(rand, NON_COMPLIANT) : pick(rand, COMPLIANT);
    const description = JSON.stringify(`${capital(metric)} of the ${noun} tracked by ${id}.`);
    const marker = `/*@tool ${name}*/`;
    const finding = choice.finding;
    tools.push({ name, kind: choice.kind, finding, marker });

    switch (choice.kind) {
      case "call":
        usesDataToolOutput = true;
        body.push(`${marker}
export const ${name} = ${reg}.tool({ description: ${description} })(function ${name}(): DataToolOutput {
  return answer(${JSON.stringify(text)}, tableOf(${header}, [${rows}]), "${source}");
});`);
        break;
      case "call-async-input":
        usesDataToolOutput = true;
        usesZod = true;
        body.push(`${marker}
export const ${name} = ${reg}.tool({ description: ${description}, input: { limit: z.number().int().min(1).max(10) } })(
  async function ${name}({ limit }: { limit: number }): Promise<DataToolOutput> {
    const rows = rowsOf(${id}Records, limit);
    return answer(\`\${rows.length} ${noun}, ${metric} total \${total(${id}Records)}.\`, tableOf(${header}, rows), "${source}");
  },
);`);
        break;
      case "call-alias":
        usesAliases = true;
        body.push(`${marker}
export const ${name} = ${reg}.tool({ description: ${description} })(async function ${name}(): AsyncToolResult {
  return answer(${JSON.stringify(text)}, tableOf(${header}, [${rows}]), "${source}");
});`);
        break;
      case "decorator":
        usesAliases = true;
        classMembers.push(`  ${marker}
  @${reg}.tool({ description: ${description} })
  static ${name}(): ToolResult {
    return answer(${JSON.stringify(text)}, tableOf(${header}, [${rows}]), "${source}");
  }`);
        break;
      case "platform":
        usesPlatform = true;
        usesDataToolOutput = true;
        body.push(`${marker}
export const ${name} = defineTool(function ${name}(): DataToolOutput {
  return answer(${JSON.stringify(text)}, tableOf(${header}, [${rows}]), "${source}");
}, { description: ${description} });`);
        break;
      case "stored-decorator":
        usesDataToolOutput = true;
        body.push(`const ${name}Tool: ToolDecorator = ${reg}.tool({ description: ${description} });
${marker}
export const ${name} = ${name}Tool(function ${name}(): DataToolOutput {
  return answer(${JSON.stringify(text)}, tableOf(${header}, [${rows}]), "${source}");
});`);
        break;
      case "missing-call":
        body.push(`${marker}
export const ${name} = ${reg}.tool({ description: ${description} })(function ${name}() {
  return answer(${JSON.stringify(text)}, tableOf(${header}, [${rows}]), "${source}");
});`);
        break;
      case "missing-decorator":
        classMembers.push(`  ${marker}
  @${reg}.tool({ description: ${description} })
  static ${name}() {
    return answer(${JSON.stringify(text)}, tableOf(${header}, [${rows}]), "${source}");
  }`);
        break;
      case "wrong-string":
        body.push(`${marker}
export const ${name} = ${reg}.tool({ description: ${description} })(function ${name}(): string {
  return ${JSON.stringify(text)};
});`);
        break;
      case "wrong-promise-rows":
        usesRows = true;
        body.push(`${marker}
export const ${name} = ${reg}.tool({ description: ${description} })(async function ${name}(): Promise<Row[]> {
  return tableOf(${header}, [${rows}]);
});`);
        break;
      case "wrong-platform":
        usesPlatform = true;
        body.push(`${marker}
export const ${name} = defineTool(async function ${name}(): Promise<string> {
  return ${JSON.stringify(text)};
});`);
        break;
      case "escaped-decorator":
        // The decorator value leaves the analysis' sight: whatever it registers later is unknown.
        body.push(`${marker}
export const ${name}Decorators = [${reg}.tool({ name: "${name}", description: ${description} })];`);
        break;
      default:
        throw new Error(`unknown registration kind ${choice.kind}`);
    }
  }

  const head = [];
  if (usesDataToolOutput) head.push(`import type { DataToolOutput } from "@sourced/registry";`);
  if (body.some((text) => text.includes("ToolDecorator"))) head.push(`import type { ToolDecorator } from "@sourced/registry";`);
  if (usesZod) head.push(`import { z } from "zod";`);
  head.push(renamed ? `import { registry as tools } from "../registry.js";` : `import { registry } from "../registry.js";`);
  if (usesPlatform) head.push(`import { defineTool } from "../platform.js";`);
  const typeImports = ["Measured"];
  if (usesAliases) typeImports.push("AsyncToolResult", "ToolResult");
  if (usesRows) typeImports.push("Row");
  head.push(`import type { ${typeImports.sort().join(", ")} } from "../shared/types.js";`);
  head.push(`import { answer, rowsOf, tableOf, total } from "../shared/answer.js";`);
  for (const other of imports) head.push(`import { m${pad(other)}Rows } from "./m${pad(other)}.js";`);

  const parts = [
    head.join("\n"),
    `/** The ${noun} this module knows, by ${metric}. */
export interface ${Id}Record extends Measured {
  readonly kind: "${noun}";
}

export const ${id}Records: readonly ${Id}Record[] = [
${records.join("\n")}
];

export function ${id}Rows(limit: number) {
  return rowsOf(${id}Records, limit);
}

/** The ${metric} of all ${noun} of this module. */
export const ${id}Total = total(${id}Records);`,
    ...body,
  ];
  if (classMembers.length > 0) parts.push(`export class ${Id}Tools {\n${classMembers.join("\n\n")}\n}`);
  let text = `${parts.join("\n\n")}\n`;

  // Lines of the registrations, for the manifest; the markers go away.
  const lines = text.split("\n");
  const out = [];
  for (const line of lines) {
    const match = /^\s*\/\*@tool (\S+)\*\/$/.exec(line);
    if (match) {
      const tool = tools.find((candidate) => candidate.name === match[1]);
      tool.line = out.length + 1; // the registration starts on the next line
      continue;
    }
    out.push(line);
  }
  text = out.join("\n");
  for (const tool of tools) {
    manifest.kinds[tool.kind] = (manifest.kinds[tool.kind] ?? 0) + 1;
    if (tool.finding) {
      manifest.findings[tool.finding] = (manifest.findings[tool.finding] ?? 0) + 1;
      manifest.expected.push({ file: relativeFile, line: tool.line, id: tool.finding, tool: tool.finding === "unverifiable-registration" ? null : tool.name });
    }
  }
  return text;
}

// ---------------------------------------------------------------------------------------------
// The realistic shape: ordinary code beside the modules that register tools

/** The shapes of a project: every module registers tools, or 1 module in 10 does (the rest is ordinary code). */
export const SHAPES = ["tools", "realistic"];

/** In the realistic shape, module i registers tools when i % TOOL_MODULE_EVERY === 0. */
const TOOL_MODULE_EVERY = 10;

/** The realistic shape's own types and helpers: ordinary code, which knows nothing of the registry. */
const MODEL_TS = `export type Region = ${REGIONS.map((r) => JSON.stringify(r)).join(" | ")};
export type Cell = string | number | boolean | null;
export type Row = Cell[];

export interface Measured {
  readonly id: string;
  readonly region: Region;
  readonly value: number;
  readonly updated: string;
}

export function rank(records: readonly Measured[], limit: number): Row[] {
  return [...records]
    .sort((a, b) => b.value - a.value)
    .slice(0, limit)
    .map((record) => [record.id, record.region, String(record.value)]);
}

export function sum(records: readonly Measured[]): number {
  return records.reduce((total, record) => total + record.value, 0);
}
`;

/**
 * A module of ordinary code (a record type, its data, a service class, helpers) importing one to
 * three earlier ordinary modules: what surrounds a server's tools and never registers one.
 */
function ordinaryModuleText(index, imports, rand) {
  const id = `m${pad(index)}`;
  const Id = capital(id);
  const noun = NOUNS[index % NOUNS.length];
  const metric = METRICS[(index * 7) % METRICS.length];
  const records = recordLines(id, noun, rand);
  const head = [`import type { Measured, Region, Row } from "../shared/model.js";`, `import { rank, sum } from "../shared/model.js";`];
  for (const other of imports) head.push(`import { m${pad(other)}Rows, M${pad(other)}Service } from "./m${pad(other)}.js";`);
  const combined = imports.map((other) => `...m${pad(other)}Rows(limit)`).join(", ");
  const neighbours = imports.map((other) => `new M${pad(other)}Service().count()`).join(" + ");
  return `${head.join("\n")}

/** The ${noun} this module knows, by ${metric}. */
export interface ${Id}Record extends Measured {
  readonly kind: "${noun}";
}

export const ${id}Records: readonly ${Id}Record[] = [
${records.join("\n")}
];

export function ${id}Rows(limit: number) {
  return rank(${id}Records, limit);
}

/** The ${metric} of all ${noun} of this module. */
export const ${id}Total = sum(${id}Records);

export interface ${Id}Filter {
  readonly region?: Region;
  readonly min?: number;
}

/** Reads, groups and refreshes the ${noun}. */
export class ${Id}Service {
  constructor(private readonly records: readonly ${Id}Record[] = ${id}Records) {}

  count(): number {
    return this.records.length;
  }

  find(filter: ${Id}Filter = {}): ${Id}Record[] {
    return this.records.filter((record) => (filter.region === undefined || record.region === filter.region) && record.value >= (filter.min ?? 0));
  }

  byRegion(): Map<Region, ${Id}Record[]> {
    const groups = new Map<Region, ${Id}Record[]>();
    for (const record of this.records) {
      const group = groups.get(record.region) ?? [];
      group.push(record);
      groups.set(record.region, group);
    }
    return groups;
  }

  async refresh(read: (id: string) => Promise<number>): Promise<${Id}Record[]> {
    return Promise.all(this.records.map(async (record) => ({ ...record, value: await read(record.id) })));
  }

  combined(limit: number): Row[] {
    return [...${id}Rows(limit)${combined ? `, ${combined}` : ""}];
  }
}

export function ${id}Summary(service = new ${Id}Service()): string {
  const neighbours = ${neighbours || "0"};
  return [...service.byRegion()].map(([region, group]) => \`\${region}: \${group.length}\`).join(", ") + \` (\${neighbours} nearby)\`;
}
`;
}

// ---------------------------------------------------------------------------------------------
// Project

/** Where a project of this size lives. */
export function projectDir(out, { files, tools, seed, shape = "tools", hints = false, zodObjects = false }) {
  return path.join(out, `files${files}-tools${tools}-seed${seed}${shape === "tools" ? "" : `-${shape}`}${hints ? "-hints" : ""}${zodObjects ? "-zod-objects" : ""}`);
}

function write(file, text) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/**
 * Links the workspace packages (and zod, which generated tools import) into `<out>/node_modules`,
 * so every generated project resolves them the way a user's project resolves its dependencies.
 */
export function linkWorkspace(out) {
  const modules = path.join(out, "node_modules");
  const links = {
    "@sourced/registry": path.join(ROOT, "packages", "registry"),
    "@sourced/transformer": path.join(ROOT, "packages", "transformer"),
    "@sourced/eslint-plugin": path.join(ROOT, "packages", "eslint-plugin"),
    "@sourced/cli": path.join(ROOT, "packages", "cli"),
    // What the registry's start-up check loads when a generated server runs from its sources.
    "@sourced/project": path.join(ROOT, "packages", "project"),
    zod: fs.realpathSync(path.join(ROOT, "packages", "registry", "node_modules", "zod")),
  };
  for (const [name, target] of Object.entries(links)) {
    const link = path.join(modules, name);
    fs.mkdirSync(path.dirname(link), { recursive: true });
    const relative = path.relative(path.dirname(link), target);
    let current;
    try {
      current = fs.readlinkSync(link);
    } catch {
      current = undefined;
    }
    if (current === relative) continue;
    fs.rmSync(link, { recursive: true, force: true });
    fs.symlinkSync(relative, link, "dir");
  }
}

const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    lib: ["ES2023"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    types: [],
    strict: true,
    skipLibCheck: true,
    rootDir: "src",
    outDir: "build/tsc",
    noEmitOnError: false,
  },
  include: ["src"],
};

/** ESLint flat configs: the same parser and typed setup, different rules. */
function eslintConfig(rules) {
  return `import sourced from "@sourced/eslint-plugin";

const recommended = sourced.configs.recommended;

export default [
  {
    files: ["src/**/*.ts"],
    languageOptions: {
      ...recommended.languageOptions,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { ...recommended.plugins${rules.some((rule) => rule.startsWith("@typescript-eslint/")) ? ', "@typescript-eslint": (await import("typescript-eslint")).plugin' : ""} },
    linterOptions: { reportUnusedDisableDirectives: "off" },
    rules: ${JSON.stringify(Object.fromEntries(rules.map((rule) => [rule, "error"])))},
  },
];
`;
}

/**
 * Writes the project for (files, tools, seed) under `out` and returns its manifest. Files are
 * rewritten only when their text changed, so re-running the generator keeps build caches warm.
 */
export function generateProject({ files, tools, seed, shape = "tools", hints = false, zodObjects = false, out = DEFAULT_OUT }) {
  if (!SHAPES.includes(shape)) throw new Error(`--shape must be one of ${SHAPES.join(", ")}, got ${shape}`);
  if (!Number.isInteger(files) || files < 1) throw new Error(`--files must be a positive integer, got ${files}`);
  const registering = shape === "tools" ? files : Math.ceil(files / TOOL_MODULE_EVERY);
  if (!Number.isInteger(tools) || tools < registering) throw new Error(`--tools must be an integer >= ${registering} (the modules that register tools), got ${tools}`);
  if (!Number.isInteger(seed)) throw new Error(`--seed must be an integer, got ${seed}`);

  linkWorkspace(out);
  const dir = projectDir(out, { files, tools, seed, shape, hints, zodObjects });
  const rand = random(seed);
  const manifest = {
    files,
    tools,
    seed,
    ...(shape === "tools" ? {} : { shape, toolModules: registering }),
    sourceFiles: files + (shape === "tools" ? 5 : 6),
    registrations: tools,
    kinds: {},
    findings: {},
    expected: [],
  };

  const put = (relative, text) => {
    const file = path.join(dir, relative);
    try {
      if (fs.readFileSync(file, "utf8") === text) return;
    } catch {
      // new file
    }
    write(file, text);
  };

  put("tsconfig.json", `${JSON.stringify(TSCONFIG, null, 2)}\n`);
  put(
    "tsconfig.transformer.json",
    `${JSON.stringify(
      {
        extends: "./tsconfig.json",
        compilerOptions: { outDir: "build/tspc", plugins: [{ transform: "@sourced/transformer", transformProgram: true }] },
      },
      null,
      2,
    )}\n`,
  );
  put("tsconfig.tspc-plain.json", `${JSON.stringify({ extends: "./tsconfig.json", compilerOptions: { outDir: "build/tspc-plain" } }, null, 2)}\n`);
  put("eslint.none.config.mjs", eslintConfig([]));
  put("eslint.rule.config.mjs", eslintConfig(["sourced/require-data-tool-output"]));
  put("eslint.no-floating-promises.config.mjs", eslintConfig(["@typescript-eslint/no-floating-promises"]));
  put("package.json", `${JSON.stringify({ name: path.basename(dir), private: true, type: "commonjs" }, null, 2)}\n`);

  put("src/registry.ts", REGISTRY_TS);
  put("src/platform.ts", PLATFORM_TS);
  put("src/shared/types.ts", TYPES_TS);
  put("src/shared/answer.ts", ANSWER_TS);

  if (shape === "realistic") put("src/shared/model.ts", MODEL_TS);

  const registers = (index) => shape === "tools" || index % TOOL_MODULE_EVERY === 0;
  const perFile = Math.floor(tools / registering);
  const extra = tools % registering;
  const moduleFiles = [];
  for (let index = 0, toolModule = 0; index < files; index++) {
    // Imports: one to three earlier modules, mostly near ones (as related code tends to be). In
    // the realistic shape ordinary code imports ordinary code only; tools import anything.
    const imports = new Set();
    const wanted = index === 0 ? 0 : 1 + Math.floor(rand() * 3);
    for (let k = 0; k < wanted; k++) {
      const distance = 1 + Math.floor(rand() * rand() * Math.min(index, 50));
      let target = index - distance;
      if (!registers(index)) while (target > 0 && registers(target)) target--;
      if (registers(index) || !registers(target)) imports.add(target);
    }
    const relative = `src/modules/m${pad(index)}.ts`;
    moduleFiles.push(relative);
    const sorted = [...imports].sort((a, b) => a - b);
    if (registers(index)) {
      const text = moduleText(index, perFile + (toolModule < extra ? 1 : 0), sorted, rand, manifest, relative);
      put(relative, asWritten(text, { hints, zodObjects }));
      toolModule++;
    } else {
      put(relative, ordinaryModuleText(index, sorted, rand));
    }
  }
  put(
    "src/server.ts",
    `${moduleFiles.map((file) => `import "./${file.slice("src/".length).replace(/\.ts$/, ".js")}";`).join("\n")}
import { registry } from "./registry.js";

/** Every module registers its tools when imported; then serve them. */
export const serving = registry.serveStdio();
`,
  );
  // Files left over from a larger project of the same name would change the program.
  const modulesDir = path.join(dir, "src", "modules");
  const keep = new Set(moduleFiles.map((file) => path.basename(file)));
  for (const name of fs.readdirSync(modulesDir)) if (!keep.has(name)) fs.rmSync(path.join(modulesDir, name));

  manifest.expectedFindings = manifest.expected.length;
  put("manifest.json", `${JSON.stringify(manifest, null, 2)}\n`);
  return { dir, manifest };
}

/**
 * A module as real tools write it, the same project otherwise (the same random draws, findings and
 * expectations), in a directory of its own. `--hints`: every `.tool({ description: … })` also
 * writes its tool's hints in place, as most tools do (`annotations: { readOnlyHint: true, title:
 * "…" }`). `--zod-objects`: every input is a zod object (`input: z.object({ … })`, as code moved
 * from the SDK writes it) instead of a raw shape.
 */
function asWritten(text, { hints, zodObjects }) {
  let written = text;
  if (hints) written = written.replace(/\.tool\(\{ description: ("(?:[^"\\]|\\.)*")/g, (whole, description) => `${whole}, annotations: { readOnlyHint: true, title: ${description} }`);
  if (zodObjects) written = written.replace(/input: (\{ limit: [^}]* \})/g, (_whole, shape) => `input: z.object(${shape})`);
  return written;
}

// ---------------------------------------------------------------------------------------------

function parseFlags(argv) {
  const flags = { files: 2000, tools: 10000, seed: 1, shape: "tools", hints: false, zodObjects: false, out: DEFAULT_OUT };
  for (let i = 0; i < argv.length; i++) {
    const [key, inline] = argv[i].split("=", 2);
    const value = () => inline ?? argv[++i];
    if (key === "--files") flags.files = Number(value());
    else if (key === "--tools") flags.tools = Number(value());
    else if (key === "--seed") flags.seed = Number(value());
    else if (key === "--shape") flags.shape = value();
    else if (key === "--out") flags.out = path.resolve(value());
    else if (key === "--hints") flags.hints = true;
    else if (key === "--zod-objects") flags.zodObjects = true;
    else throw new Error(`unknown option ${argv[i]}; the options are --files N --tools M --seed S --shape tools|realistic --hints --zod-objects --out DIR`);
  }
  return flags;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { dir, manifest } = generateProject(parseFlags(process.argv.slice(2)));
    console.log(
      `${path.relative(process.cwd(), dir)}: ${manifest.files} modules${manifest.toolModules ? ` (${manifest.toolModules} register tools)` : ""}, ${manifest.tools} tools, ` +
        `${manifest.expectedFindings} non-compliant (${Object.entries(manifest.findings)
          .map(([id, n]) => `${id} ${n}`)
          .join(", ")})`,
    );
  } catch (error) {
    console.error(`generate: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  }
}
