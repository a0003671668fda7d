// An instance method cannot be a tool: decorating one throws while the class is defined.
import { createRegistry, type DataToolOutput } from "@sourced/registry";

export function defineForecaster(): unknown {
  const registry = createRegistry({ name: "instance", version: "1.0.0" });
  class Forecaster {
    @registry.tool()
    forecast(): DataToolOutput {
      return { content: [{ type: "text", text: "Sunny." }], structuredContent: { sources: ["https://example.org"] } };
    }
  }
  return Forecaster;
}
