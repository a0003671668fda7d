import type * as ts from "typescript";
import { createNodeRenderer, planEdits, VERIFIED_STAMP_KEY, type EditPlanOptions, type Registration, type RegistrationEdit } from "@sourced/analysis";
import type { TransformerOptions } from "./options.js";
import { registrationFailureDiagnostic } from "./diagnostics.js";

type TypeScript = typeof ts;

export interface EmitContext {
  readonly ts: TypeScript;
  readonly options: TransformerOptions;
  /** The value of the stamp, naming the verifier, e.g. `@sourced/transformer@0.1.0`. */
  readonly verifier: string;
  /** The registrations of an original source file, or `undefined` when it could not be checked. */
  readonly registrationsOf: (sourceFile: ts.SourceFile) => readonly Registration[] | undefined;
  /** Receives a diagnostic for a registration that could not be rewritten. */
  readonly report: (diagnostic: ts.Diagnostic) => void;
}

/**
 * The `before` transformer: renders the analysis' edit plan (verified registrations stamped and
 * their tool names pinned, rejected ones removed with `strip`) as nodes. A file without a planned
 * edit is returned untouched, so its output is what tsc alone emits and it costs what an identity
 * transformer does. Registrations are matched by original node, never by text.
 */
export function createEmitTransformer(context: EmitContext): ts.TransformerFactory<ts.SourceFile> {
  const { ts: typescript, options } = context;
  // The build's options: the same plan options for every file.
  const planOptions: EditPlanOptions = {
    strip: options.strip,
    stamp: options.stamp ? { key: VERIFIED_STAMP_KEY, value: context.verifier } : undefined,
  };
  return (transformation) => (sourceFile) => {
    const original = typescript.getOriginalNode(sourceFile, typescript.isSourceFile);
    const registrations = context.registrationsOf(original);
    if (registrations === undefined || registrations.length === 0) return sourceFile;
    // The edit plan is the analysis' (shared with the bundler plugin); this renders it as nodes.
    const plan = planEdits(typescript, registrations, planOptions);
    // Registrations with nothing to write (kept unstamped, their names in the options): untouched.
    if (plan.length === 0) return sourceFile;
    return rewriteFile(context, transformation, sourceFile, plan);
  };
}

/** Marks a node on the way from the file to a planned site. */
const ON_PATH = Symbol("on the path to a site");

/**
 * Rewrites the planned sites of one file. The walk follows only the paths from the file to its
 * sites: the sites' ancestors, read from the parse tree's parent links. A node off those paths
 * is returned as it is, unvisited, so the rest of the file costs nothing however large or deep
 * (a 10,000-term `1 + 1 + …` chain); on a path, `visitEachChild` rebuilds a node only when one
 * of its children changed. New nodes come from one renderer per file, which shares what the
 * edits write alike.
 */
function rewriteFile(context: EmitContext, transformation: ts.TransformationContext, sourceFile: ts.SourceFile, plan: readonly RegistrationEdit[]): ts.SourceFile {
  const { ts: typescript, options } = context;
  const { factory } = transformation;
  const renderer = createNodeRenderer(typescript, factory);
  // Each planned site to its edit, and each node on a path to a site (a site can be both, inside
  // another registration) to ON_PATH: one map answers both questions of the walk.
  const walk = new Map<ts.Node, RegistrationEdit | typeof ON_PATH>();
  for (const edit of plan) {
    walk.set(edit.site, edit);
    // Stops where an earlier site's path joined: the rest of the way up is in the map already.
    for (let node: ts.Node | undefined = edit.site.parent; node !== undefined && !walk.has(node); node = node.parent) walk.set(node, ON_PATH);
  }

  /** The plan's edit of a call: `(fn)` alone (the call and its side effects gone), or `dec(defineProperties(fn), ...rest)`. */
  const rewriteCall = (node: ts.CallExpression, edit: Extract<RegistrationEdit, { site: ts.CallExpression }>): ts.Expression => {
    const callArguments = node.arguments;
    const first = callArguments[0];
    if (first === undefined || typescript.isSpreadElement(first)) return typescript.visitEachChild(node, visit, transformation);
    const fn = visitExpression(first);
    // The printer parenthesizes where the context needs it (a statement must not become a declaration).
    if (edit.kind === "unwrap-call") return fn;
    const callee = visitExpression(node.expression);
    const rewritten = [renderer.functionPropertiesCall(fn, edit.properties)];
    for (let index = 1; index < callArguments.length; index++) rewritten.push(visitExpression(callArguments[index]!));
    return factory.updateCallExpression(node, callee, node.typeArguments, rewritten);
  };

  /** The plan's edit of a decorator: removed, or wrapped so it receives the method stamped. */
  const rewriteDecorator = (node: ts.Decorator, edit: Extract<RegistrationEdit, { site: ts.Decorator }>): ts.Decorator | undefined => {
    if (edit.kind === "remove-decorator") return undefined;
    return factory.updateDecorator(node, renderer.stampingDecorator(visitExpression(node.expression), edit.properties));
  };

  /** Only decorators are ever removed, so an expression always visits to an expression. */
  function visitExpression(node: ts.Expression): ts.Expression {
    return typescript.visitNode(node, visit, typescript.isExpression) ?? node;
  }

  function visit(node: ts.Node): ts.VisitResult<ts.Node | undefined> {
    const original = typescript.getOriginalNode(node);
    const entry = walk.get(original);
    if (entry !== undefined && entry !== ON_PATH) {
      const edit = entry;
      const { registration } = edit;
      try {
        if (edit.kind === "unwrap-call" || edit.kind === "define-on-function") {
          if (typescript.isCallExpression(node)) return rewriteCall(node, edit);
        } else if (typescript.isDecorator(node)) return rewriteDecorator(node, edit);
      } catch (error) {
        context.report(registrationFailureDiagnostic(typescript, registration.site, registration.tool, error, options));
      }
    }
    // A node that a transformer before this one made from nothing has no path to judge by: walked.
    if (entry === undefined && original.pos >= 0) return node;
    return typescript.visitEachChild(node, visit, transformation);
  }

  return typescript.visitEachChild(sourceFile, visit, transformation);
}
