import { relative } from "node:path";
import type * as ts from "typescript";
import type { PluginConfig } from "ts-patch";
import { FINDING_KINDS, type Finding } from "@sourced/analysis";
import type { OptionProblem, TransformerOptions } from "./options.js";

type TypeScript = typeof ts;

/** Prefix of every message that is about the transformer itself rather than a tool. */
const SELF = "@sourced/transformer";

function category(typescript: TypeScript, options: TransformerOptions): ts.DiagnosticCategory {
  return options.severity === "error" ? typescript.DiagnosticCategory.Error : typescript.DiagnosticCategory.Warning;
}

/**
 * One finding, exactly as the analysis reported it: its node's span, its kind's code, its message;
 * a warning kind (a weaker guarantee) stays a warning whatever `severity` says.
 */
export function findingDiagnostic(typescript: TypeScript, finding: Finding, options: TransformerOptions): ts.Diagnostic {
  return {
    file: finding.sourceFile,
    start: finding.start,
    length: finding.end - finding.start,
    category: FINDING_KINDS[finding.id].severity === "warning" ? typescript.DiagnosticCategory.Warning : category(typescript, options),
    code: finding.code,
    messageText: finding.message,
  };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The file as tsc prints it: relative to the directory the build runs in. */
function display(sourceFile: ts.SourceFile): string {
  return relative(process.cwd(), sourceFile.fileName).split("\\").join("/") || sourceFile.fileName;
}

function lineOf(sourceFile: ts.SourceFile, position: number): string {
  const { line, character } = sourceFile.getLineAndCharacterOfPosition(position);
  return `${display(sourceFile)}:${line + 1}:${character + 1}`;
}

/** The check of a whole file failed: nothing in it was judged, stripped or stamped. */
export function fileFailureDiagnostic(
  typescript: TypeScript,
  sourceFile: ts.SourceFile,
  error: unknown,
  options: TransformerOptions,
): ts.Diagnostic {
  return {
    file: sourceFile,
    start: 0,
    length: 0,
    category: category(typescript, options),
    code: FINDING_KINDS["internal-error"].code,
    messageText:
      `${SELF} could not check ${display(sourceFile)} (internal error: ${errorText(error)}). ` +
      `Its tool registrations were neither judged nor stamped, so a registry with requireVerified refuses them. ` +
      `Run \`sourced check\` on the project and report this error with the file.`,
  };
}

/** Stripping or stamping one registration failed: it is emitted as written, unstamped. */
export function registrationFailureDiagnostic(
  typescript: TypeScript,
  site: ts.Node,
  tool: string | undefined,
  error: unknown,
  options: TransformerOptions,
): ts.Diagnostic {
  const sourceFile = site.getSourceFile();
  const start = site.getStart(sourceFile);
  const name = tool === undefined ? "the registration" : `the registration of tool '${tool}'`;
  return {
    file: sourceFile,
    start,
    length: site.getEnd() - start,
    category: category(typescript, options),
    code: FINDING_KINDS["internal-error"].code,
    messageText:
      `${SELF} could not rewrite ${name} at ${lineOf(sourceFile, start)} (internal error: ${errorText(error)}). ` +
      `It is emitted as written and unstamped, so a registry with requireVerified refuses it. Report this error with the file.`,
  };
}

/**
 * A wrong plugins entry. Reported on the offending key in tsconfig.json when the compiler kept the
 * parsed config file, else as a global diagnostic; always an error, whatever `severity` says.
 */
export function optionDiagnostic(
  typescript: TypeScript,
  compilerOptions: ts.CompilerOptions,
  config: PluginConfig,
  problem: OptionProblem,
): ts.Diagnostic {
  const messageText = `${SELF}: ${problem.message}`;
  const located = locateOption(typescript, compilerOptions, config, problem.key);
  return {
    file: located?.file,
    start: located?.start,
    length: located?.length,
    category: typescript.DiagnosticCategory.Error,
    code: FINDING_KINDS["internal-error"].code,
    messageText,
  };
}

/** Registered as a source transformer: the check cannot reach --noEmit, -b, --incremental or --watch builds. */
export function notProgramTransformerDiagnostic(typescript: TypeScript): ts.Diagnostic {
  return {
    file: undefined,
    start: undefined,
    length: undefined,
    category: typescript.DiagnosticCategory.Error,
    code: FINDING_KINDS["internal-error"].code,
    messageText:
      `${SELF} must run as a program transformer: write { "transform": "@sourced/transformer", "transformProgram": true } ` +
      `in compilerOptions.plugins. Without "transformProgram": true its findings cannot be reported by tsc --noEmit, ` +
      `--incremental, -b or --watch builds. This build still strips and stamps the emitted registrations.`,
  };
}

/**
 * This TypeScript's program lacks the internal `getProgramDiagnostics` that the builder behind
 * --incremental, -b and --watch asks afresh on every build: findings would reach plain builds
 * only. Reported on `sourceFile` (the first file checked), at its start.
 */
export function missingBuilderHookDiagnostic(typescript: TypeScript, sourceFile: ts.SourceFile): ts.Diagnostic {
  return {
    file: sourceFile,
    start: 0,
    length: 0,
    category: typescript.DiagnosticCategory.Error,
    code: FINDING_KINDS["internal-error"].code,
    messageText:
      `${SELF} cannot report its findings to --incremental, -b or --watch builds with TypeScript ${typescript.version}: ` +
      `its program has no getProgramDiagnostics, which every TypeScript from 5.0 to 6.0 has. Those builds would keep ` +
      `stale findings, or none, for files they do not re-check. Use a supported TypeScript (>=5.0 <6.1), or run ` +
      `\`sourced check\` next to the build.`,
  };
}

/** Finds `"key": value` inside the plugins entry of tsconfig.json that holds `config`. */
function locateOption(
  typescript: TypeScript,
  compilerOptions: ts.CompilerOptions,
  config: PluginConfig,
  key: string,
): { file: ts.SourceFile; start: number; length: number } | undefined {
  const file = compilerOptions["configFile"] as ts.TsConfigSourceFile | undefined;
  const root = file?.statements[0]?.expression;
  if (file === undefined || root === undefined || !typescript.isObjectLiteralExpression(root)) return undefined;
  const property = (object: ts.ObjectLiteralExpression, name: string) =>
    object.properties.find(
      (p): p is ts.PropertyAssignment =>
        typescript.isPropertyAssignment(p) && typescript.isStringLiteral(p.name) && p.name.text === name,
    );
  const compiler = property(root, "compilerOptions")?.initializer;
  const plugins = compiler && typescript.isObjectLiteralExpression(compiler) ? property(compiler, "plugins")?.initializer : undefined;
  if (plugins === undefined || !typescript.isArrayLiteralExpression(plugins)) return undefined;
  for (const entry of plugins.elements) {
    if (!typescript.isObjectLiteralExpression(entry)) continue;
    // ts-patch hands a source transformer its entry without `transform`: then any entry with the key.
    const transform = property(entry, "transform")?.initializer;
    if (transform === undefined || !typescript.isStringLiteral(transform)) continue;
    if (config["transform"] !== undefined && transform.text !== config["transform"]) continue;
    const found = property(entry, key);
    if (found === undefined) continue;
    const start = found.getStart(file);
    return { file, start, length: found.getEnd() - start };
  }
  return undefined;
}
