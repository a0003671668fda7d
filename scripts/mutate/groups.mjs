// @ts-check
// What one `pnpm mutate` run mutates and which tests judge it, by `SOURCED_MUTATE`. Shared by
// stryker.config.mjs (the files mutated, where the reports go) and scripts/mutate/vitest.config.mts
// (the tests run), so the two cannot disagree.
//
// A mutant reruns the tests that cover it, but a *static* mutant (code run when a module loads:
// contract.ts's schemas) reruns every test of the run. The analysis' corpus is judged a case per
// test (packages/analysis/test/corpus.test.ts), so an analysis mutant reruns the cases that reach
// it. A group per file keeps that set to the tests that pin the file, so a file's run fits in
// hours, not days; the two package groups (`registry`, the default, and `analysis`) mutate every
// file of their package against all of its in-process tests, as before.

/** @param {...string} names */
const registryTests = (...names) => names.map((name) => `packages/registry/test/${name}.test.ts`);
/** The contract's rules' own tests (the registry's and the analysis' read the rules from that package). */
const contractRulesTests = () => ["packages/contract-rules/test/rules.test.ts"];
/** @param {...string} names */
const analysisTests = (...names) => names.map((name) => `packages/analysis/test/${name}.test.ts`);

/**
 * @typedef {object} MutationGroup
 * @property {string[]} mutate the files (globs) Stryker mutates
 * @property {string[]} tests the test files that judge them
 * @property {boolean} [typescript6Only] judge the corpus on TypeScript 6 alone (the analysis'
 *   per-file groups: TypeScript 5 checks the same code paths against another compiler, which the
 *   package group and `pnpm test` still do; it halves what every analysis mutant costs)
 */

/** @type {Record<string, MutationGroup>} */
export const MUTATION_GROUPS = {
  registry: {
    mutate: ["packages/registry/src/{wire,contract,problems,answers,net,bounds,stdio,tools-list,http,http-requests}.ts", "packages/contract-rules/src/{url-rule,tool-name}.ts"],
    tests: [...registryTests("net", "wire", "contract", "url-rule", "tool-name", "stdio-lines", "http-answers", "http-safety", "http-input", "listen-streams", "tools-list"), ...contractRulesTests()],
  },
  // The corpus through the classic backend on TypeScript 6 and 5, and the judgement's own cases.
  analysis: {
    mutate: ["packages/analysis/src/{judge,target,fit,fix,served,registry-escape,marked,symbols,text-scope,reference-scan,sites}.ts"],
    tests: analysisTests("corpus", "analysis"),
  },

  // wire.ts is reached through the net (callThroughNet copies a result with toWire).
  wire: { mutate: ["packages/registry/src/wire.ts"], tests: registryTests("wire", "net") },
  // contract.ts's schemas are built when it loads (static mutants): the tests of the schemas
  // themselves, of the net that checks results against them, of the URL rule they embed, of
  // the contracts built per tool (a declared `output`, resources standing as sources), and of a
  // resource read's result, which the net checks against the contract's schema of it.
  contract: {
    mutate: ["packages/registry/src/contract.ts"],
    tests: registryTests("contract", "net", "url-rule", "typed-outputs", "resource-sources", "resource-reads"),
  },
  // What contract.ts held until the offerings' schemas moved out: the MCP parts both use (content
  // blocks, `_meta`, annotations; static mutants too), judged by the contract's tests and the
  // offerings'; and the schemas of what resources, templates and prompts answer.
  schemas: {
    mutate: ["packages/registry/src/{mcp-schemas,offering-schemas}.ts"],
    tests: registryTests("contract", "net", "resource-reads", "resources-prompts", "resource-templates", "template-callbacks", "prompt-completions"),
  },
  // The URL rule is read by the contract's schemas and by the registry's start-up check; its advice
  // for local data is read where a served resource may stand as a source, and `toSourceUrl` has tests of its own.
  "url-rule": { mutate: ["packages/contract-rules/src/url-rule.ts"], tests: [...registryTests("url-rule", "contract", "resource-sources", "to-source-url"), ...contractRulesTests()] },
  "tool-name": { mutate: ["packages/contract-rules/src/tool-name.ts"], tests: [...registryTests("tool-name"), ...contractRulesTests()] },
  // The net's answers to what the author's code throws (a ToolError, a stopped call) and its bounds
  // (deadlines, shutdown, a cancelled call) are pinned by their own tests, in process. The net is
  // four files: the result check, the words of its problems, its error answers, its deadlines.
  net: { mutate: ["packages/registry/src/{net,problems,answers,bounds}.ts"], tests: registryTests("net", "wire", "error-results", "deadlines", "cancellation") },
  stdio: { mutate: ["packages/registry/src/{stdio,tools-list}.ts"], tests: registryTests("stdio-lines", "tools-list") },
  serve: {
    mutate: ["packages/registry/src/{http,http-requests}.ts"],
    tests: registryTests("http-answers", "http-safety", "http-input", "listen-streams", "tools-list"),
  },

  // judge.ts and marked.ts were split along their pipelines (the target, the fit, the fix; the
  // reference scan, the symbol helpers, when equal text means equal types): each file is a group of its own.
  ...Object.fromEntries(
    ["marked", "symbols", "text-scope", "reference-scan", "sites", "served", "registry-escape", "judge", "target", "fit", "fix"].map((file) => [
      `analysis:${file}`,
      { mutate: [`packages/analysis/src/${file}.ts`], tests: analysisTests("corpus", "analysis"), typescript6Only: true },
    ]),
  ),
};

/** The group `SOURCED_MUTATE` names (the registry's by default); refuses a name it does not know. */
export function mutationGroup(name = process.env["SOURCED_MUTATE"] ?? "registry") {
  const group = MUTATION_GROUPS[name];
  if (group === undefined) {
    throw new Error(`SOURCED_MUTATE must be one of ${Object.keys(MUTATION_GROUPS).join(", ")}; got ${JSON.stringify(name)}`);
  }
  // A folder name without the colon, which some file systems refuse.
  return { name, reportDir: `reports/mutation/${name.replace(":", "-")}`, ...group };
}
