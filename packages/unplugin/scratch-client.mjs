import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
const t = new StdioClientTransport({ command: process.execPath, args: [process.argv[2]], stderr: "pipe" });
let err=""; t.stderr?.on("data", d => err += d);
const c = new Client({ name: "t", version: "1" });
await c.connect(t);
console.log((await c.listTools()).tools.map(t => t.name));
await c.close(); console.log("stderr:", err);
