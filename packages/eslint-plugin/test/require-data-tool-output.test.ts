import type { MessageIds, Options } from "../src/rules/require-data-tool-output";
import { createRuleTester, rule } from "./helpers";

/*
 * Each case is linted as fixtures/eslint/file.ts, typed by fixtures/eslint/tsconfig.json through
 * the project service; `./registry` is a real `createRegistry()` of @sourced/registry.
 */

const RESULT = `{ content: [{ type: "text" as const, text: "Tokyo" }], structuredContent: { sources: ["https://example.org/cities"] } }`;

/** The same result in checked JavaScript, where a JSDoc cast keeps the literal type. */
const JS_RESULT = RESULT.replace(`"text" as const`, `/** @type {const} */ ("text")`);

const ruleTester = createRuleTester();

// The rule tester (pinned 8.72.0) types rules with its own @typescript-eslint/utils, whose private
// members differ from the 8.73.0 the rule is built with: the same rule, told apart by the types only.
type RuleUnderTest = Parameters<typeof ruleTester.run<MessageIds, Options>>[1];

ruleTester.run("require-data-tool-output", rule as unknown as RuleUnderTest, {
  valid: [
    {
      name: "call form annotated DataToolOutput",
      code: `
import type { DataToolOutput } from "@sourced/registry";
import { registry } from "./registry";
export const listCities = registry.tool()(function list_cities(): DataToolOutput {
  return ${RESULT};
});
`,
    },
    {
      name: "async arrow annotated Promise<DataToolOutput>, with options",
      code: `
import type { DataToolOutput } from "@sourced/registry";
import { registry } from "./registry";
export const population = registry.tool({ name: "population", description: "Population of a city" })(
  async (): Promise<DataToolOutput> => (${RESULT}),
);
`,
    },
    {
      name: "decorator form on an annotated static method",
      code: `
import type { DataToolOutput } from "@sourced/registry";
import { registry } from "./registry";
export class Weather {
  @registry.tool() static forecast(): DataToolOutput {
    return ${RESULT};
  }
}
`,
    },
    {
      name: "a look-alike tool() that is not the registry's is left alone",
      code: `
import { lookalike } from "./registry";
export const greet = lookalike.tool()(function greet() {
  return "hello";
});
`,
    },
    {
      name: "an explicit empty options object is accepted",
      code: `export const nothing = 1;`,
      options: [{}],
    },
  ],
  invalid: [
    {
      name: "checked JavaScript, missing JSDoc: the suggestion adds @returns and a JSDoc @import",
      filename: "checked.js",
      code: `
import { registry } from "./registry";
/** Lists the cities. */
function listCities() {
  return ${JS_RESULT};
}
registry.tool()(listCities);
`,
      errors: [
        {
          messageId: "missing-annotation",
          line: 4,
          suggestions: [
            {
              messageId: "addAnnotationAndImport",
              data: { text: "DataToolOutput", name: "DataToolOutput", module: "@sourced/registry" },
              output: `
import { registry } from "./registry";
/** @import { DataToolOutput } from "@sourced/registry" */
/** Lists the cities.
 * @returns {DataToolOutput}
 */
function listCities() {
  return ${JS_RESULT};
}
registry.tool()(listCities);
`,
            },
          ],
        },
      ],
    },
    {
      name: "missing annotation of a function that also returns an error result: DataToolOutput | ErrorResult, both imported in one statement",
      code: `
import { registry } from "./registry";
declare const known: boolean;
export const findCity = registry.tool()(function find_city() {
  if (!known) return { content: [{ type: "text" as const, text: "No city." }], isError: true as const };
  return ${RESULT};
});
`,
      errors: [
        {
          messageId: "missing-annotation",
          line: 4,
          suggestions: [
            {
              messageId: "addAnnotationAndImport",
              data: { text: "DataToolOutput | ErrorResult", name: "DataToolOutput, ErrorResult", module: "@sourced/registry" },
              output: `
import { registry } from "./registry";
import type { DataToolOutput, ErrorResult } from "@sourced/registry";
declare const known: boolean;
export const findCity = registry.tool()(function find_city(): DataToolOutput | ErrorResult {
  if (!known) return { content: [{ type: "text" as const, text: "No city." }], isError: true as const };
  return ${RESULT};
});
`,
            },
          ],
        },
      ],
    },
    {
      name: "missing annotation returning an error result, DataToolOutput already imported: only ErrorResult is added to that import",
      code: `
import type { DataToolOutput } from "@sourced/registry";
import { registry } from "./registry";
declare const known: boolean;
export const findCity = registry.tool()(function find_city() {
  if (!known) return { content: [{ type: "text" as const, text: "No city." }], isError: true as const };
  const found: DataToolOutput = ${RESULT};
  return found;
});
`,
      errors: [
        {
          messageId: "missing-annotation",
          line: 5,
          suggestions: [
            {
              messageId: "addAnnotationAndImport",
              data: { text: "DataToolOutput | ErrorResult", name: "ErrorResult", module: "@sourced/registry" },
              output: `
import type { DataToolOutput, ErrorResult } from "@sourced/registry";
import { registry } from "./registry";
declare const known: boolean;
export const findCity = registry.tool()(function find_city(): DataToolOutput | ErrorResult {
  if (!known) return { content: [{ type: "text" as const, text: "No city." }], isError: true as const };
  const found: DataToolOutput = ${RESULT};
  return found;
});
`,
            },
          ],
        },
      ],
    },
    {
      name: "missing annotation, type not imported: the suggestion annotates and imports after the last import",
      code: `
import { registry } from "./registry";
export const listCities = registry.tool()(function list_cities() {
  return ${RESULT};
});
`,
      errors: [
        {
          messageId: "missing-annotation",
          line: 3,
          column: 52,
          endLine: 3,
          endColumn: 63,
          suggestions: [
            {
              messageId: "addAnnotationAndImport",
              data: { text: "DataToolOutput", name: "DataToolOutput", module: "@sourced/registry" },
              output: `
import { registry } from "./registry";
import type { DataToolOutput } from "@sourced/registry";
export const listCities = registry.tool()(function list_cities(): DataToolOutput {
  return ${RESULT};
});
`,
            },
          ],
        },
      ],
    },
    {
      name: "missing annotation, type already imported: the suggestion only annotates",
      code: `
import type { DataToolOutput } from "@sourced/registry";
import { registry } from "./registry";
export const cities: DataToolOutput[] = [];
export const listCities = registry.tool()(function list_cities() {
  return ${RESULT};
});
`,
      errors: [
        {
          messageId: "missing-annotation",
          line: 5,
          column: 52,
          suggestions: [
            {
              messageId: "addAnnotation",
              data: { text: "DataToolOutput" },
              output: `
import type { DataToolOutput } from "@sourced/registry";
import { registry } from "./registry";
export const cities: DataToolOutput[] = [];
export const listCities = registry.tool()(function list_cities(): DataToolOutput {
  return ${RESULT};
});
`,
            },
          ],
        },
      ],
    },
    {
      name: "async function: Promise<DataToolOutput>, merged into a value import as a type specifier",
      code: `
import { dataToolOutputSchema } from "@sourced/registry";
import { registry } from "./registry";
export const schema = dataToolOutputSchema;
export const population = registry.tool()(async function population() {
  return ${RESULT};
});
`,
      errors: [
        {
          messageId: "missing-annotation",
          line: 5,
          suggestions: [
            {
              messageId: "addAnnotationAndImport",
              data: { text: "Promise<DataToolOutput>", name: "DataToolOutput", module: "@sourced/registry" },
              output: `
import { dataToolOutputSchema, type DataToolOutput } from "@sourced/registry";
import { registry } from "./registry";
export const schema = dataToolOutputSchema;
export const population = registry.tool()(async function population(): Promise<DataToolOutput> {
  return ${RESULT};
});
`,
            },
          ],
        },
      ],
    },
    {
      name: "merged into an existing type-only import",
      code: `
import type { ToolOptions } from "@sourced/registry";
import { registry } from "./registry";
const options: ToolOptions = { description: "The largest cities" };
export const listCities = registry.tool(options)(function list_cities() {
  return ${RESULT};
});
`,
      errors: [
        {
          messageId: "missing-annotation",
          suggestions: [
            {
              messageId: "addAnnotationAndImport",
              data: { text: "DataToolOutput", name: "DataToolOutput", module: "@sourced/registry" },
              output: `
import type { ToolOptions, DataToolOutput } from "@sourced/registry";
import { registry } from "./registry";
const options: ToolOptions = { description: "The largest cities" };
export const listCities = registry.tool(options)(function list_cities(): DataToolOutput {
  return ${RESULT};
});
`,
            },
          ],
        },
      ],
    },
    {
      name: "a namespace import cannot take a specifier: a new import, in the file's quotes",
      code: `
import * as sourced from '@sourced/registry';
const registry = sourced.createRegistry({ name: 'cities', version: '1.0.0' });
export const listCities = registry.tool()(function list_cities() {
  return ${RESULT};
});
`,
      errors: [
        {
          messageId: "missing-annotation",
          line: 4,
          suggestions: [
            {
              messageId: "addAnnotationAndImport",
              data: { text: "DataToolOutput", name: "DataToolOutput", module: "@sourced/registry" },
              output: `
import * as sourced from '@sourced/registry';
import type { DataToolOutput } from '@sourced/registry';
const registry = sourced.createRegistry({ name: 'cities', version: '1.0.0' });
export const listCities = registry.tool()(function list_cities(): DataToolOutput {
  return ${RESULT};
});
`,
            },
          ],
        },
      ],
    },
    {
      name: "a file without imports: the import goes at the top",
      code: `declare const registry: (typeof import("./registry"))["registry"];
export const listCities = registry.tool()(function list_cities() {
  return ${RESULT};
});
`,
      errors: [
        {
          messageId: "missing-annotation",
          line: 2,
          suggestions: [
            {
              messageId: "addAnnotationAndImport",
              data: { text: "DataToolOutput", name: "DataToolOutput", module: "@sourced/registry" },
              output: `import type { DataToolOutput } from "@sourced/registry";
declare const registry: (typeof import("./registry"))["registry"];
export const listCities = registry.tool()(function list_cities(): DataToolOutput {
  return ${RESULT};
});
`,
            },
          ],
        },
      ],
    },
    {
      name: "an arrow whose lone parameter has no parentheses gets them with the annotation",
      code: `
import type { DataToolOutput } from "@sourced/registry";
import { registry } from "./registry";
export const echo = registry.tool({ name: "echo" })(async text => (${RESULT}));
`,
      errors: [
        {
          messageId: "missing-annotation",
          line: 4,
          suggestions: [
            {
              messageId: "addAnnotation",
              data: { text: "Promise<DataToolOutput>" },
              output: `
import type { DataToolOutput } from "@sourced/registry";
import { registry } from "./registry";
export const echo = registry.tool({ name: "echo" })(async (text): Promise<DataToolOutput> => (${RESULT}));
`,
            },
          ],
        },
      ],
    },
    {
      name: "decorator form: the annotation goes after the method's parameter list",
      code: `
import type { DataToolOutput } from "@sourced/registry";
import { registry } from "./registry";
export class Weather {
  @registry.tool() static forecast() {
    return ${RESULT};
  }
}
`,
      errors: [
        {
          messageId: "missing-annotation",
          line: 5,
          column: 27,
          endLine: 5,
          endColumn: 35,
          suggestions: [
            {
              messageId: "addAnnotation",
              data: { text: "DataToolOutput" },
              output: `
import type { DataToolOutput } from "@sourced/registry";
import { registry } from "./registry";
export class Weather {
  @registry.tool() static forecast(): DataToolOutput {
    return ${RESULT};
  }
}
`,
            },
          ],
        },
      ],
    },
    {
      name: "one suggestion per finding, each fixing its own tool",
      code: `
import type { DataToolOutput } from "@sourced/registry";
import { registry } from "./registry";
export const a = registry.tool()(function tool_a() {
  return ${RESULT};
});
export const b = registry.tool()(function tool_b() {
  return ${RESULT};
});
`,
      errors: [
        {
          messageId: "missing-annotation",
          line: 4,
          suggestions: [
            {
              messageId: "addAnnotation",
              data: { text: "DataToolOutput" },
              output: `
import type { DataToolOutput } from "@sourced/registry";
import { registry } from "./registry";
export const a = registry.tool()(function tool_a(): DataToolOutput {
  return ${RESULT};
});
export const b = registry.tool()(function tool_b() {
  return ${RESULT};
});
`,
            },
          ],
        },
        {
          messageId: "missing-annotation",
          line: 7,
          suggestions: [
            {
              messageId: "addAnnotation",
              data: { text: "DataToolOutput" },
              output: `
import type { DataToolOutput } from "@sourced/registry";
import { registry } from "./registry";
export const a = registry.tool()(function tool_a() {
  return ${RESULT};
});
export const b = registry.tool()(function tool_b(): DataToolOutput {
  return ${RESULT};
});
`,
            },
          ],
        },
      ],
    },
    {
      name: "missing annotation whose inferred type does not fit: reported without a suggestion",
      code: `
import { registry } from "./registry";
export const greet = registry.tool()(function greet() {
  return "hello";
});
`,
      errors: [{ messageId: "missing-annotation", line: 3, column: 47, endColumn: 52, suggestions: [] }],
    },
    {
      name: "an unrelated DataToolOutput is declared here: no suggestion (an import would collide)",
      code: `
import { registry } from "./registry";
type DataToolOutput = { text: string };
export const sample: DataToolOutput = { text: "" };
export const listCities = registry.tool()(function list_cities() {
  return ${RESULT};
});
`,
      errors: [{ messageId: "missing-annotation", line: 5, suggestions: [] }],
    },
    {
      // The import would land at the top level, where this function does not see it: the
      // annotation would name the namespace's type and fail the check.
      name: "a DataToolOutput declared around the function shadows an import: no suggestion",
      code: `
import { registry } from "./registry";
export namespace Local {
  type DataToolOutput = { text: string };
  export const sample: DataToolOutput = { text: "" };
  export const listCities = registry.tool()(function list_cities() {
    return ${RESULT};
  });
}
`,
      errors: [{ messageId: "missing-annotation", line: 6, suggestions: [] }],
    },
    {
      name: "annotated with another type: not-data-tool-output at the annotation, no suggestion",
      code: `
import { registry } from "./registry";
export const greet = registry.tool()(function greet(): string {
  return "hello";
});
`,
      errors: [{ messageId: "not-data-tool-output", line: 3, column: 56, endColumn: 62, suggestions: [] }],
    },
    {
      name: "a decorator passed away: unverifiable-registration",
      code: `
import { registry } from "./registry";
function wrap<T>(value: T): T {
  return value;
}
export const wrapped = wrap(registry.tool());
`,
      errors: [{ messageId: "unverifiable-registration", line: 6 }],
    },
  ],
});
