// A platform's own decorator, defined outside the class it decorates: the site of a registration
// is still the decorated class, which errors name (the start-up check, which would refuse the
// instance method with a warning instead of throwing, is off).
import { createRegistry, type DataToolOutput, type ToolDecorator, type ToolFunction } from "@sourced/registry";

/** A class above the wrapper: an error naming it would have located the wrapper, not the class. */
export class Earlier {}

export function defineWrapped(): unknown {
  const registry = createRegistry({ name: "wrapped", version: "1.0.0", startupCheck: false });
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
