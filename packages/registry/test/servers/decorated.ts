// TC39 decorators on static methods, compiled by tsc (the form users write). The start-up check
// is off: what is tested is the decorator form and the stamp alone.
import { createRegistry, type DataToolOutput, type Logger, type ToolDecorator, type ToolFunction } from "@sourced/registry";

export function buildDecorated(logger: Logger) {
  const registry = createRegistry({ name: "decorated", version: "1.0.0", logger, startupCheck: false });

  class Weather {
    static readonly source = "https://example.org/weather";

    @registry.tool({ description: "Tomorrow's forecast." })
    static forecast(): DataToolOutput {
      // `this` is the class: static members are reachable as in any static method.
      return { content: [{ type: "text", text: "Sunny." }], structuredContent: { sources: [this.source] } };
    }

    @registry.tool({ name: "rain_chance" })
    static rain(): DataToolOutput {
      return { content: [{ type: "text", text: "10%" }], structuredContent: { sources: [this.source], force: "10%" } };
    }
  }
  return { registry, Weather };
}

/** The decorator form of the verified stamp, as a compile step emits it: stamp the method, then decorate. */
function stamped(decorator: ToolDecorator) {
  return <F extends ToolFunction>(method: F, context: ClassMethodDecoratorContext): F =>
    decorator(Object.defineProperty(method, Symbol.for("@sourced/registry:verified"), { value: "@sourced/transformer@0.1.0" }), context);
}

export function buildVerifiedDecorated(logger: Logger) {
  const registry = createRegistry({ name: "decorated-verified", version: "1.0.0", logger, requireVerified: true, startupCheck: false });

  class Weather {
    @stamped(registry.tool())
    static forecast(): DataToolOutput {
      return { content: [{ type: "text", text: "Sunny." }], structuredContent: { sources: ["https://example.org/weather"] } };
    }

    @registry.tool()
    static unchecked(): DataToolOutput {
      return { content: [{ type: "text", text: "?" }], structuredContent: { sources: ["https://example.org/weather"] } };
    }
  }
  return { registry, Weather };
}
