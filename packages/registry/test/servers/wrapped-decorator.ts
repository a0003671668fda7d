// A platform's own decorator, defined outside the class it decorates: the site of a registration
// is still the decorated class, which errors name.
import { createRegistry, type DataToolOutput, type ToolDecorator, type ToolFunction } from "@sourced/registry";

/** A class above the wrapper: an error naming it would have located the wrapper, not the class. */
export class Earlier {}

export function defineWrapped(): unknown {
  const registry = createRegistry({ name: "wrapped", version: "1.0.0" });
  const asTool = ((method: ToolFunction, context: ClassMethodDecoratorContext) =>
    registry.tool()(method, context)) as unknown as ToolDecorator;
  class Forecaster {
    @asTool
    forecast(): DataToolOutput {
      return { content: [{ type: "text", text: "Sunny." }], structuredContent: { sources: ["https://example.org"] } };
    }
  }
  return Forecaster;
}
