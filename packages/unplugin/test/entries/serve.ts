// The example server started by an entry of its own: an ES module output cannot use `server.ts`'s
// `require.main === module`, and webpack and rspack wrap an ES module's `module`, so it never holds.
import { registry } from "../../../../fixtures/projects/cities/src/registry.js";
import "../../../../fixtures/projects/cities/src/tools/index.js";

registry.serveStdio().catch((error: unknown) => {
  process.stderr.write(`cities server failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
