// An instance method cannot be a tool: decorating one throws while the class is defined (with the
// start-up check on, run from source, it is refused with a warning instead: startup-check.test.ts).
import { createRegistry, type DataToolOutput } from "@sourced/registry";

export function defineForecaster(): unknown {
  const registry = createRegistry({ name: "instance", version: "1.0.0", startupCheck: false });
  class Forecaster {
    @registry.tool()
    forecast(): DataToolOutput {
      return { content: [{ type: "text", text: "Sunny." }], structuredContent: { sources: ["https://example.org"] } };
    }
  }
  return Forecaster;
}
