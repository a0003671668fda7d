// A server that depends on its environment, as real ones do: it says which variables reached it,
// and with NODE_ENV=production it serves only verified tools, so its unstamped one is refused
// (with a warning on stderr). It writes to stderr on every call, as a server's own logging does.
import { createRegistry } from "@sourced/registry";

const registry = createRegistry({ name: "env-cases", version: "1.0.0", requireVerified: process.env.NODE_ENV === "production" });

registry.tool({ description: "Says which of the preview's environment variables reached the server." })(function environment() {
  console.error(`environment: called with API_KEY ${process.env.API_KEY === undefined ? "unset" : "set"}`);
  return {
    content: [{ type: "text", text: `API_KEY=${process.env.API_KEY ?? "(unset)"} REGION=${process.env.REGION ?? "(unset)"}` }],
    structuredContent: { sources: ["https://example.org/environment"] },
  };
});

await registry.serveStdio();
