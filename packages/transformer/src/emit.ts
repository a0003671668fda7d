import type * as ts from "typescript";
import { VERIFIED_STAMP_KEY, type Registration } from "@sourced/analysis";
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
 * The `before` transformer: stamps verified registrations and, with `strip`, removes rejected
 * ones. A file without registrations is returned untouched, so its output is what tsc alone
 * emits. Registrations are matched by original node, never by text.
 */
export function createEmitTransformer(context: EmitContext): ts.TransformerFactory<ts.SourceFile> {
  const { ts: typescript, options } = context;
  return (transformation) => (sourceFile) => {
    const original = typescript.getOriginalNode(sourceFile, typescript.isSourceFile);
    const registrations = context.registrationsOf(original);
    if (registrations === undefined || registrations.length === 0) return sourceFile;

    const bySite = new Map<ts.Node, Registration>(registrations.map((r) => [r.site, r]));
    const { factory } = transformation;
    // Site ranges by start: the walk descends only into nodes that contain a site, so it stays
    // shallow however deep the rest of the file nests (a 10,000-term `1 + 1 + …` chain).
    const siteRanges = registrations.map((r) => [r.site.pos, r.site.end] as const).sort((a, b) => a[0] - b[0]);
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

    const stamp = (fn: ts.Expression): ts.Expression =>
      factory.createCallExpression(
        factory.createPropertyAccessExpression(factory.createIdentifier("Object"), "defineProperty"),
        undefined,
        [
          fn,
          factory.createCallExpression(
            factory.createPropertyAccessExpression(factory.createIdentifier("Symbol"), "for"),
            undefined,
            // `Symbol.for` gives the registry's own symbol in every realm: the emitted code imports nothing.
            [factory.createStringLiteral(VERIFIED_STAMP_KEY)],
          ),
          factory.createObjectLiteralExpression([factory.createPropertyAssignment("value", factory.createStringLiteral(context.verifier))]),
        ],
      );

    /** `dec(fn, ...rest)` -> `dec(stamp(fn), ...rest)`; rejected: `fn` alone, the call (and its side effects) gone. */
    const rewriteCall = (node: ts.CallExpression, registration: Registration): ts.Expression => {
      const [first, ...rest] = node.arguments;
      if (first === undefined || typescript.isSpreadElement(first)) return typescript.visitEachChild(node, visit, transformation);
      const fn = visitExpression(first);
      if (registration.finding !== undefined) {
        return options.strip ? fn : factory.updateCallExpression(node, visitExpression(node.expression), node.typeArguments, [fn, ...rest.map(visitExpression)]);
      }
      return factory.updateCallExpression(node, visitExpression(node.expression), node.typeArguments, [stamp(fn), ...rest.map(visitExpression)]);
    };

    /**
     * `@dec` -> `@(((d) => (m, ...r) => d(stamp(m), ...r))(dec))`: the decorator receives the
     * method stamped, its other arguments unchanged; rejected: removed.
     */
    const rewriteDecorator = (node: ts.Decorator, registration: Registration): ts.Decorator | undefined => {
      if (registration.finding !== undefined) return options.strip ? undefined : typescript.visitEachChild(node, visit, transformation);
      const parameter = (name: string, rest = false) =>
        factory.createParameterDeclaration(undefined, rest ? factory.createToken(typescript.SyntaxKind.DotDotDotToken) : undefined, name);
      const wrapper = factory.createArrowFunction(
        undefined,
        undefined,
        [parameter("d")],
        undefined,
        undefined,
        factory.createArrowFunction(
          undefined,
          undefined,
          [parameter("m"), parameter("r", true)],
          undefined,
          undefined,
          factory.createCallExpression(factory.createIdentifier("d"), undefined, [
            stamp(factory.createIdentifier("m")),
            factory.createSpreadElement(factory.createIdentifier("r")),
          ]),
        ),
      );
      const applied = factory.createCallExpression(factory.createParenthesizedExpression(wrapper), undefined, [visitExpression(node.expression)]);
      return factory.updateDecorator(node, factory.createParenthesizedExpression(applied));
    };

    /** Only decorators are ever removed, so an expression always visits to an expression. */
    function visitExpression(node: ts.Expression): ts.Expression {
      return typescript.visitNode(node, visit, typescript.isExpression) ?? node;
    }

    function visit(node: ts.Node): ts.VisitResult<ts.Node | undefined> {
      const registration = bySite.get(typescript.getOriginalNode(node));
      if (registration !== undefined) {
        try {
          if (typescript.isCallExpression(node)) return rewriteCall(node, registration);
          if (typescript.isDecorator(node)) return rewriteDecorator(node, registration);
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
