import type * as ts from "typescript";
import { functionPropertiesCall, planEdits, stampingDecorator, VERIFIED_STAMP_KEY, type Registration, type RegistrationEdit } from "@sourced/analysis";
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
 * their tool names pinned, rejected ones removed with `strip`) as nodes. A file without registrations is returned untouched, so its output is what tsc alone
 * emits. Registrations are matched by original node, never by text.
 */
export function createEmitTransformer(context: EmitContext): ts.TransformerFactory<ts.SourceFile> {
  const { ts: typescript, options } = context;
  return (transformation) => (sourceFile) => {
    const original = typescript.getOriginalNode(sourceFile, typescript.isSourceFile);
    const registrations = context.registrationsOf(original);
    if (registrations === undefined || registrations.length === 0) return sourceFile;

    // The edit plan is the analysis' (shared with the bundler plugin); this renders it as nodes.
    const stamp = options.stamp ? { key: VERIFIED_STAMP_KEY, value: context.verifier } : undefined;
    const plan = planEdits(typescript, registrations, { strip: options.strip, stamp });
    const bySite = new Map<ts.Node, RegistrationEdit>(plan.map((edit) => [edit.site, edit]));
    const { factory } = transformation;
    // Site ranges by start: the walk descends only into nodes that contain a site, so it stays
    // shallow however deep the rest of the file nests (a 10,000-term `1 + 1 + …` chain).
    const siteRanges = plan.map((edit) => [edit.site.pos, edit.site.end] as const).sort((a, b) => a[0] - b[0]);
    const containsSite = (node: ts.Node): boolean => {
      if (node.pos < 0) return true; // synthesized: no range to judge by
      let low = 0;
      let high = siteRanges.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (siteRanges[middle]![0] < node.pos) low = middle + 1;
        else high = middle;
      }
      for (let index = low; index < siteRanges.length && siteRanges[index]![0] <= node.end; index++) {
        if (siteRanges[index]![1] <= node.end) return true;
      }
      return false;
    };

    /** The plan's edit of a call: `(fn)` alone (the call and its side effects gone), or `dec(defineProperties(fn), ...rest)`. */
    const rewriteCall = (node: ts.CallExpression, edit: Extract<RegistrationEdit, { site: ts.CallExpression }>): ts.Expression => {
      const [first, ...rest] = node.arguments;
      if (first === undefined || typescript.isSpreadElement(first)) return typescript.visitEachChild(node, visit, transformation);
      const fn = visitExpression(first);
      // The printer parenthesizes where the context needs it (a statement must not become a declaration).
      if (edit.kind === "unwrap-call") return fn;
      return factory.updateCallExpression(node, visitExpression(node.expression), node.typeArguments, [
        functionPropertiesCall(factory, fn, edit.properties),
        ...rest.map(visitExpression),
      ]);
    };

    /** The plan's edit of a decorator: removed, or wrapped so it receives the method stamped. */
    const rewriteDecorator = (node: ts.Decorator, edit: Extract<RegistrationEdit, { site: ts.Decorator }>): ts.Decorator | undefined => {
      if (edit.kind === "remove-decorator") return undefined;
      return factory.updateDecorator(node, stampingDecorator(typescript, factory, visitExpression(node.expression), edit.properties));
    };

    /** Only decorators are ever removed, so an expression always visits to an expression. */
    function visitExpression(node: ts.Expression): ts.Expression {
      return typescript.visitNode(node, visit, typescript.isExpression) ?? node;
    }

    function visit(node: ts.Node): ts.VisitResult<ts.Node | undefined> {
      const edit = bySite.get(typescript.getOriginalNode(node));
      if (edit !== undefined) {
        const { registration } = edit;
        try {
          if (edit.kind === "unwrap-call" || edit.kind === "define-on-function") {
            if (typescript.isCallExpression(node)) return rewriteCall(node, edit);
          } else if (typescript.isDecorator(node)) return rewriteDecorator(node, edit);
        } catch (error) {
          context.report(registrationFailureDiagnostic(typescript, registration.site, registration.tool, error, options));
        }
      }
      if (!containsSite(typescript.getOriginalNode(node))) return node;
      return typescript.visitEachChild(node, visit, transformation);
    }

    return typescript.visitEachChild(sourceFile, visit, transformation);
  };
}
