import * as fs from "node:fs";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { beforeAll, describe, expect, test } from "vitest";
import { analyzeProgram, FINDING_KINDS, type FindingId } from "@sourced/analysis";
import { assertMatchesExpectations, assertMatchesReferences, CASES_DIR, CASES_PROJECTS, REFERENCES_DIR, relativeToCases, type Reported } from "../../../fixtures/harness";
import {
  copyProject,
  edit,
  FAULTS_PLUGIN,
  FIXTURES_DIR,
  lineOf,
  listTools,
  originalLines,
  ours,
  PROGRAM_ENTRY,
  tsc,
  tspc,
  Watch,
  type Diagnostic,
  type Pair,
  type Run,
} from "./support";

const VERIFIER = `@sourced/transformer@${(JSON.parse(fs.readFileSync(path.join(__dirname, "..", "package.json"), "utf8")) as { version: string }).version}`;

const ID_OF_CODE = new Map<number, FindingId>(Object.values(FINDING_KINDS).map((kind) => [kind.code, kind.id]));

/** The tool as the message quotes it (`tool 'list_cities'`), `undefined` when it is not known. */
const toolOf = (message: string) => /\btool '([^']*)'/i.exec(message)?.[1];

const summary = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.map((d) => `${d.file}(${d.line},${d.column}) ${d.category} TS${d.code} ${toolOf(d.message) ?? "?"}`).sort();

const HUMIDITY = `src/tools.ts(10,50) error TS${FINDING_KINDS["missing-annotation"].code} humidity`;
const WIND = `src/tools.ts(14,41) error TS${FINDING_KINDS["missing-annotation"].code} wind`;
const WIND_BROKEN = "export function wind() {";
const WIND_FIXED = "export function wind(): DataToolOutput {";
const HUMIDITY_FIXED = "function humidity(): DataToolOutput {";
const HUMIDITY_BROKEN = "function humidity() {";

export function defineTransformerSuite(pair: Pair): void {
  describe(pair.title, () => {
    test("the pair really is that TypeScript", () => {
      const version = tspc(pair, ["-v"], FIXTURES_DIR);
      expect(version.output).toContain(`Version ${pair.typescriptVersion}`);
    });

    test("tspc --noEmit reports exactly the corpus's expectations, as analyzeProgram finds them", () => {
      const { ts } = pair;
      const reported: Reported[] = [];
      const messages: string[] = [];
      const analysed: Reported[] = [];
      const expectedMessages: string[] = [];
      for (const tsconfig of CASES_PROJECTS) {
        // Each project through its copy under fixtures/transformer/cases, which adds the plugin.
        // Run where this process runs: messages that name another file say it relative to the cwd.
        const withPlugin = path.join(FIXTURES_DIR, "cases", path.relative(CASES_DIR, tsconfig));
        const run = tspc(pair, ["-p", withPlugin], process.cwd());
        const findings = ours(run.diagnostics);
        expect(run.diagnostics.filter((d) => !findings.includes(d)), run.output).toEqual([]);
        const here = findings.map((d) => ({
          file: relativeToCases(path.resolve(d.file!)),
          id: ID_OF_CODE.get(d.code) ?? `TS${d.code}`,
          tool: toolOf(d.message),
          line: d.line,
          column: d.column,
        }));
        reported.push(...here);
        messages.push(...findings.map((d) => d.message));
        // Every finding is an error but the one warning of a weaker guarantee (strictNullChecks off).
        for (const d of findings) expect(d.category, d.message).toBe(FINDING_KINDS[ID_OF_CODE.get(d.code)!].severity);
        expect(run.status).toBe(findings.some((d) => d.category === "error") ? 2 : 0);

        // The same findings, field for field, as the analysis itself reports on the same program.
        const config = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
        const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
        const { findings: expected } = analyzeProgram(ts, program);
        analysed.push(
          ...expected.map((finding) => {
            const { line, character } = finding.sourceFile.getLineAndCharacterOfPosition(finding.start);
            return { file: relativeToCases(finding.sourceFile.fileName), id: finding.id, tool: finding.tool, line: line + 1, column: character + 1 };
          }),
        );
        expectedMessages.push(...expected.map((finding) => finding.message));
      }
      assertMatchesExpectations(reported);
      const key = (r: Reported) => `${r.file}:${r.line}:${r.column} ${r.id} ${r.tool}`;
      expect(reported.map(key).sort()).toEqual(analysed.map(key).sort());
      expect(messages.sort()).toEqual(expectedMessages.sort());
    });

    describe("a server built with tspc (strip and stamp)", () => {
      let project: string;
      let build: Run;
      beforeAll(() => {
        project = copyProject("server", `server-${pair.id}`);
        build = tspc(pair, ["-p", "."], project);
        const plain = tsc(pair, ["-p", ".", "--outDir", "out/tsc"], project);
        expect(plain.status, plain.output).toBe(0);
      });

      test("reports each rejected tool once, at its annotation or name", () => {
        expect(summary(build.diagnostics)).toEqual([
          `src/tools.ts(21,54) error TS${FINDING_KINDS["missing-annotation"].code} no_annotation`,
          `src/tools.ts(26,69) error TS${FINDING_KINDS["not-data-tool-output"].code} count_cities`,
          `src/tools.ts(40,25) error TS${FINDING_KINDS["not-data-tool-output"].code} temperature`,
        ]);
        expect(build.status).toBe(2);
      });

      test("serves exactly the compliant tools to the SDK Client (requireVerified: true)", async () => {
        const { tools, stderr } = await listTools(process.execPath, ["out/tspc/server.js"], project);
        expect(tools).toEqual(["city_of_the_day", "forecast", "list_cities", "population", "todays_city"]);
        expect(stderr).not.toContain("was not registered");
      });

      test("the stripped module still loads, exports the bare functions under their names, stamps the rest", () => {
        const probe = `
          const tools = require("./out/tspc/tools.js");
          const stamp = (fn) => Object.getOwnPropertyDescriptor(fn, Symbol.for("@sourced/registry:verified"));
          console.log(JSON.stringify({
            noAnnotation: [tools.noAnnotation.name, tools.noAnnotation().structuredContent.sources],
            countCities: [tools.countCities.name, tools.countCities()],
            aliased: tools.city_of_the_day.name,
            temperature: tools.Weather.temperature(),
            stamped: Object.fromEntries(
              [tools.listCities, tools.population, tools.Weather.forecast, tools.noAnnotation, tools.countCities, tools.Weather.temperature]
                .map((fn) => [fn.name, stamp(fn) && { value: stamp(fn).value, enumerable: stamp(fn).enumerable }]),
            ),
          }));`;
        const js = fs.readFileSync(path.join(project, "out/tspc/tools.js"), "utf8");
        expect(js).toContain("_static_forecast_decorators = [");
        expect(js, "the rejected decorator is removed").not.toContain("temperature_decorators");
        const result = spawnSync(process.execPath, ["-e", probe], { cwd: project, encoding: "utf8" });
        expect(result.status, result.stderr).toBe(0);
        const stamped = { value: VERIFIER, enumerable: false };
        expect(JSON.parse(result.stdout)).toEqual({
          noAnnotation: ["no_annotation", ["https://example.org/cities"]],
          countCities: ["count_cities", 3],
          aliased: "city_of_the_day",
          temperature: "21 degrees",
          stamped: { list_cities: stamped, population: stamped, forecast: stamped },
        });
      });

      test("declaration output is byte-identical to plain tsc's; so is the JS of files without registrations", () => {
        for (const file of ["answer.d.ts", "registry.d.ts", "server.d.ts", "tools.d.ts", "answer.js", "registry.js", "server.js"]) {
          expect(fs.readFileSync(path.join(project, "out/tspc", file), "utf8"), file).toBe(
            fs.readFileSync(path.join(project, "out/tsc", file), "utf8"),
          );
        }
        expect(fs.readFileSync(path.join(project, "out/tspc/tools.js"), "utf8")).not.toBe(
          fs.readFileSync(path.join(project, "out/tsc/tools.js"), "utf8"),
        );
      });

      test("the source map still maps every line of the rewritten file to its source line", () => {
        const js = fs.readFileSync(path.join(project, "out/tspc/tools.js"), "utf8").split("\n");
        const map = JSON.parse(fs.readFileSync(path.join(project, "out/tspc/tools.js.map"), "utf8")) as { mappings: string };
        const lines = originalLines(map.mappings);
        const source = path.join(project, "src/tools.ts");
        for (const marker of ['"Tokyo, Delhi', "has many inhabitants", '"inferred, not declared"', "const total = 3;", '"Sunny tomorrow."', '"21 degrees"']) {
          const generated = js.findIndex((line) => line.includes(marker));
          expect(generated, marker).toBeGreaterThanOrEqual(0);
          expect(lines[generated]?.[0], marker).toBe(lineOf(source, marker) - 1);
        }
      });
    });

    test("an internal failure becomes one diagnostic naming the file or registration; the build goes on", () => {
      // A real plugin before ours makes the first type checker the analysis asks for fail (as it
      // checks answer.ts, the program's first file), and the factory once, as the registration of
      // list_cities is stamped.
      const faults = { transform: FAULTS_PLUGIN, transformProgram: true, failFirstChecker: true, failRewriteOf: "list_cities" };
      const project = copyProject("server", `crash-${pair.id}`, PROGRAM_ENTRY, [faults]);
      const run = tspc(pair, ["-p", "."], project);
      expect(run.output).not.toMatch(/\n\s+at /); // no stack trace: nothing crashed
      const internal = FINDING_KINDS["internal-error"].code;
      expect(summary(run.diagnostics)).toEqual([
        `src/answer.ts(1,1) error TS${internal} ?`,
        `src/tools.ts(21,54) error TS${FINDING_KINDS["missing-annotation"].code} no_annotation`,
        `src/tools.ts(26,69) error TS${FINDING_KINDS["not-data-tool-output"].code} count_cities`,
        `src/tools.ts(40,25) error TS${FINDING_KINDS["not-data-tool-output"].code} temperature`,
        `src/tools.ts(7,27) error TS${internal} list_cities`,
      ]);
      expect(run.diagnostics.find((d) => d.file === "src/answer.ts")?.message).toContain("could not check src/answer.ts");
      expect(run.diagnostics.find((d) => d.code === internal && d.file === "src/tools.ts")?.message).toContain("src/tools.ts:7:27");
      const js = fs.readFileSync(path.join(project, "out/tspc/tools.js"), "utf8");
      expect(js).toContain("(function list_cities() {"); // emitted as written: unstamped
      expect(js).toContain("Object.defineProperties(async function population("); // the rest still stamped
      expect(js).not.toContain("registry.tool()(function no_annotation"); // and stripped
    });

    test("a program without the builder's getProgramDiagnostics: one error saying so, the findings still reported", () => {
      const faults = { transform: FAULTS_PLUGIN, transformProgram: true, withoutProgramDiagnostics: true };
      // A plain build (the server project is not incremental): only the builder asks that hook.
      const run = tspc(pair, ["-p", "."], copyProject("server", `no-builder-hook-${pair.id}`, PROGRAM_ENTRY, [faults]));
      const notice = run.diagnostics.filter((d) => d.code === FINDING_KINDS["internal-error"].code);
      expect(notice.map((d) => [d.line, d.column, d.category]), run.output).toEqual([[1, 1, "error"]]);
      expect(notice[0]!.message).toContain("cannot report its findings to --incremental, -b or --watch builds");
      expect(summary(run.diagnostics.filter((d) => d !== notice[0]))).toEqual([
        `src/tools.ts(21,54) error TS${FINDING_KINDS["missing-annotation"].code} no_annotation`,
        `src/tools.ts(26,69) error TS${FINDING_KINDS["not-data-tool-output"].code} count_cities`,
        `src/tools.ts(40,25) error TS${FINDING_KINDS["not-data-tool-output"].code} temperature`,
      ]);
      expect(run.status).toBe(2);
    });

    test("--incremental: unchanged files reported again, a fix in another file seen, gone once fixed, back once broken", () => {
      const project = copyProject("single", `incremental-${pair.id}`);
      const tools = path.join(project, "src/tools.ts");
      const first = tspc(pair, ["-p", "."], project);
      expect([first.status, summary(first.diagnostics)], first.output).toEqual([2, [HUMIDITY, WIND]]);
      expect(fs.existsSync(path.join(project, "tsconfig.tsbuildinfo"))).toBe(true);
      // Only wind.ts changes, and its declaration output stays the same: tsc re-checks no other file.
      edit(path.join(project, "src/wind.ts"), WIND_BROKEN, WIND_FIXED);
      const windFixed = tspc(pair, ["-p", "."], project);
      expect([windFixed.status, summary(windFixed.diagnostics)], windFixed.output).toEqual([2, [HUMIDITY]]);
      edit(tools, HUMIDITY_BROKEN, HUMIDITY_FIXED);
      const fixed = tspc(pair, ["-p", "."], project);
      expect([fixed.status, summary(fixed.diagnostics)], fixed.output).toEqual([0, []]);
      edit(tools, HUMIDITY_FIXED, HUMIDITY_BROKEN);
      const broken = tspc(pair, ["-p", "."], project);
      expect([broken.status, summary(broken.diagnostics)], broken.output).toEqual([2, [HUMIDITY]]);
    });

    test("-b with project references: reported, gone once fixed, back once broken", () => {
      const project = copyProject("references", `build-${pair.id}`);
      const tools = path.join(project, "app/src/tools.ts");
      const app = (d: readonly Diagnostic[]) => summary(d).map((line) => line.replace(/^app\//, ""));
      const HUMIDITY = `src/tools.ts(9,50) error TS${FINDING_KINDS["missing-annotation"].code} humidity`;
      // Declared without an annotation in the referenced project, which -b reads through its emitted
      // .d.ts (the inferred type spelled out there): judged in its source, as `sourced check` does.
      const WIND_SPEED = `src/tools.ts(14,17) error TS${FINDING_KINDS["missing-annotation"].code} wind_speed`;
      const first = tspc(pair, ["-b", "."], project);
      expect([first.status !== 0, app(first.diagnostics)], first.output).toEqual([true, [WIND_SPEED, HUMIDITY]]);
      expect(first.diagnostics.find((d) => toolOf(d.message) === "wind_speed")?.message).toContain("lib/src/index.ts:");
      // The case's inline expectations, as sourced check and ESLint meet them (the copy's files are the fixture's).
      assertMatchesReferences(
        ours(first.diagnostics).map((d) => ({
          file: relativeToCases(path.join(REFERENCES_DIR, d.file!)),
          id: ID_OF_CODE.get(d.code) ?? `TS${d.code}`,
          tool: toolOf(d.message),
          line: d.line,
          column: d.column,
          message: d.message,
        })),
      );
      edit(path.join(project, "lib/src/index.ts"), "export function wind_speed() {", "export function wind_speed(): DataToolOutput {");
      const windFixed = tspc(pair, ["-b", "."], project);
      expect([windFixed.status !== 0, app(windFixed.diagnostics)], windFixed.output).toEqual([true, [HUMIDITY]]);
      edit(tools, HUMIDITY_BROKEN, HUMIDITY_FIXED);
      const fixed = tspc(pair, ["-b", "."], project);
      expect([fixed.status, app(fixed.diagnostics)], fixed.output).toEqual([0, []]);
      const upToDate = tspc(pair, ["-b", "."], project);
      expect([upToDate.status, upToDate.output.trim()]).toEqual([0, ""]);
      edit(tools, HUMIDITY_FIXED, HUMIDITY_BROKEN);
      const broken = tspc(pair, ["-b", "."], project);
      expect([broken.status !== 0, app(broken.diagnostics)], broken.output).toEqual([true, [HUMIDITY]]);
    });

    test("--watch: reported, a fix in another file seen, gone once fixed, back once broken", async () => {
      const project = copyProject("single", `watch-${pair.id}`);
      const tools = path.join(project, "src/tools.ts");
      const watch = new Watch(pair.tspc, project, pair.env);
      try {
        const first = await watch.next();
        expect(summary(first.diagnostics), first.output).toEqual([HUMIDITY, WIND]);
        edit(path.join(project, "src/wind.ts"), WIND_BROKEN, WIND_FIXED);
        const windFixed = await watch.next();
        expect(summary(windFixed.diagnostics), windFixed.output).toEqual([HUMIDITY]);
        edit(tools, HUMIDITY_BROKEN, HUMIDITY_FIXED);
        const fixed = await watch.next();
        expect(summary(fixed.diagnostics), fixed.output).toEqual([]);
        edit(tools, HUMIDITY_FIXED, HUMIDITY_BROKEN);
        const broken = await watch.next();
        expect(summary(broken.diagnostics), broken.output).toEqual([HUMIDITY]);
      } finally {
        watch.stop();
      }
    });

    test("options: a wrong key or value is one error on that key in tsconfig.json", () => {
      const project = copyProject("single", `options-${pair.id}`, { ...PROGRAM_ENTRY, severity: "fatal", strp: true });
      const run = tspc(pair, ["-p", "."], project);
      const internal = FINDING_KINDS["internal-error"].code;
      const config = path.join(project, "tsconfig.json");
      expect(run.diagnostics.map((d) => [d.file, d.line, d.category, d.code]), run.output).toEqual([
        ["tsconfig.json", lineOf(config, '"severity"'), "error", internal],
        ["tsconfig.json", lineOf(config, '"strp"'), "error", internal],
      ]);
      expect(run.diagnostics[0]!.message).toContain('option "severity" must be "error" or "warning", got "fatal"');
      expect(run.diagnostics[1]!.message).toContain('unknown option "strp" (did you mean "strip"?)');
      expect(run.status).not.toBe(0);
    });

    test('options: severity "warning" reports warnings (tsc still exits non-zero); strip: false keeps the registration', () => {
      const project = copyProject("single", `warning-${pair.id}`, { ...PROGRAM_ENTRY, severity: "warning", strip: false });
      const run = tspc(pair, ["-p", "."], project);
      expect(summary(run.diagnostics), run.output).toEqual([HUMIDITY, WIND].map((line) => line.replace(" error ", " warning ")));
      expect(run.status).toBe(2);
      const js = fs.readFileSync(path.join(project, "out/tools.js"), "utf8");
      // Kept unstamped, its name still pinned; the verified one stamped.
      expect(js).toContain("registry.tool()(Object.defineProperties(function humidity() {");
      expect(js).toMatch(/\}, \{ name: \{ value: "humidity" \} \}\)\);/);
      expect(js).toContain("registry.tool()(Object.defineProperties(function forecast() {");
      expect(js).toContain('}, { name: { value: "forecast" }, [Symbol.for("@sourced/registry:verified")]: { value: "@sourced/transformer@0.1.0" } }));');
    });

    test('without "transformProgram": true: an emit build still reports the findings, plus one error saying what to write; emit strips and stamps', () => {
      const project = copyProject("single", `source-kind-${pair.id}`, { transform: "@sourced/transformer" });
      const run = tspc(pair, ["-p", "."], project);
      const advice = run.diagnostics.filter((d) => d.file === undefined);
      expect(advice.map((d) => d.code), run.output).toEqual([FINDING_KINDS["internal-error"].code]);
      expect(advice[0]!.message).toContain('"transformProgram": true');
      // The same findings as the program transformer reports for this project.
      const full = tspc(pair, ["-p", "."], copyProject("single", `program-kind-${pair.id}`));
      expect(run.diagnostics.filter((d) => d.file !== undefined)).toEqual(full.diagnostics);
      expect(full.diagnostics.length).toBeGreaterThan(0);
      const js = fs.readFileSync(path.join(project, "out/tools.js"), "utf8");
      expect(js).not.toContain("registry.tool()(function humidity");
      expect(js).toContain("registry.tool()(Object.defineProperties(function forecast() {");
    });
  });
}
