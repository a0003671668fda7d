// Serves the plain SDK server of codes-and-urls.ts over stdio with the SDK's own serveStdio: what the
// registry's answers are compared with.
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { buildSdkCodes } from "./codes-and-urls.js";

serveStdio(() => buildSdkCodes());
