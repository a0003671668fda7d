// Serves the test registry: over stdio by default, over Streamable HTTP with `--http` (prints the URL).
import { buildRegistry } from "./tools.js";

async function main(): Promise<void> {
  const registry = buildRegistry();
  if (process.argv.includes("--http")) {
    const serving = await registry.serveHttp();
    process.stdout.write(`${serving.url.href}\n`);
    process.once("SIGTERM", () => void serving.close().then(() => process.exit(0)));
  } else {
    await registry.serveStdio();
  }
}

void main();
