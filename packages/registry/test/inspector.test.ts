/// <reference lib="dom" />
import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import type { Frame } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchChromium, screenshot } from "../../cli/test/browser";
import { PALETTE } from "../view/charts";
import { PACKAGE_DIR } from "./helpers.js";
import { colourCounts, viewGeometry } from "./hosts/measure";
import { OVERVIEW_HEADER, SOURCES, viewCasesRegistry } from "./hosts/view-cases";

/*
 * The MCP Inspector, a client nobody here wrote: its CLI (`--cli`) against the seed's example
 * server (fixtures/projects/cities) built with the transformer, over stdio and over Streamable
 * HTTP; and its web UI (`--web`), whose Apps tab renders the data view in Chromium.
 */

const CITIES = join(PACKAGE_DIR, "..", "..", "fixtures", "projects", "cities");
const OUT = join(CITIES, "out", "inspector");
const INSPECTOR = join(PACKAGE_DIR, "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js");

async function inspector(args: string[]): Promise<unknown> {
  const { stdout } = await promisify(execFile)(process.execPath, [INSPECTOR, "--cli", ...args], { cwd: CITIES, timeout: 60_000 });
  return JSON.parse(stdout) as unknown;
}

beforeAll(async () => {
  rmSync(OUT, { recursive: true, force: true });
  // tspc exits 2 for the fixture's deliberate finding (forecast) and still emits the server.
  await promisify(execFile)(process.execPath, [join(CITIES, "node_modules/ts-patch/bin/tspc.js"), "-p", ".", "--outDir", OUT], { cwd: CITIES }).catch(
    (error: { code?: number; stdout?: string }) => {
      if (error.code !== 2) throw new Error(`tspc failed: ${error.stdout ?? ""}`);
    },
  );
}, 120_000);
afterAll(() => rmSync(OUT, { recursive: true, force: true }));

function expectCities(listed: unknown, called: unknown): void {
  expect((listed as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name).sort()).toEqual(["list_cities", "population"]);
  expect(called).toMatchObject({
    content: [{ type: "text", text: "The 3 most populated cities are Tokyo (37,400,068), Delhi (30,290,936) and Shanghai (27,058,479)." }],
    structuredContent: { sources: ["https://example.org/cities-data"] },
  });
}

describe("the MCP Inspector CLI", () => {
  test("over stdio: lists the tools and calls list_cities", async () => {
    const server = ["node", join(OUT, "server.js")];
    expectCities(await inspector([...server, "--method", "tools/list"]), await inspector([...server, "--method", "tools/call", "--tool-name", "list_cities"]));
  }, 120_000);

  test("over Streamable HTTP: lists the tools and calls list_cities", async () => {
    const serve = `require(${JSON.stringify(join(OUT, "server.js"))}).registry.serveHttp().then((s) => console.log(s.url.href))`;
    const child = spawn(process.execPath, ["-e", serve], { cwd: CITIES, stdio: ["ignore", "pipe", "inherit"] });
    try {
      const url = String((await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next()).value);
      const target = [url, "--transport", "http"];
      expectCities(await inspector([...target, "--method", "tools/list"]), await inspector([...target, "--method", "tools/call", "--tool-name", "list_cities"]));
    } finally {
      child.kill();
    }
  }, 120_000);
});

/** A port nothing listens on now (the Inspector takes its ports from the environment). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe("the MCP Inspector web UI, Apps tab", () => {
  test("renders the data view as served: the table, the links and a chart in the palette's colours, in the Inspector's own style", async () => {
    const serving = await viewCasesRegistry().serveHttp();
    const [clientPort, sandboxPort, appOriginPort] = [await freePort(), await freePort(), await freePort()];
    const token = randomBytes(24).toString("hex");
    // Its own home: the Inspector keeps its catalog and settings there.
    const home = mkdtempSync(join(tmpdir(), "sourced-inspector-"));
    const inspector = spawn(process.execPath, [INSPECTOR, "--web"], {
      cwd: home,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        HOME: home,
        HOST: "127.0.0.1",
        CLIENT_PORT: String(clientPort),
        MCP_SANDBOX_PORT: String(sandboxPort),
        MCP_APP_ORIGIN_PORT: String(appOriginPort),
        MCP_AUTO_OPEN_ENABLED: "false",
        MCP_INSPECTOR_API_TOKEN: token,
        MCP_INSPECTOR_SECRET_STORE: "memory",
      },
    });
    let output = "";
    const started = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the Inspector did not start within 60 s:\n${output}`)), 60_000);
      const read = (chunk: unknown) => {
        output += String(chunk);
        if (output.includes("is up and running")) {
          clearTimeout(timer);
          resolve();
        }
      };
      inspector.stdout.on("data", read);
      inspector.stderr.on("data", read);
      inspector.once("exit", (code) => reject(new Error(`the Inspector exited (${code}):\n${output}`)));
    });
    const browser = await launchChromium();
    try {
      await started;
      // Tall enough for the Apps card to show the whole view in the screenshot.
      const page = await browser.newPage({ viewport: { width: 1400, height: 1250 } });
      // The Inspector's page asks for web fonts; nothing outside 127.0.0.1 is reachable from a test.
      await page.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort());
      // The deep link its docs give for automated App review: connect, open the Apps tab on the tool, call it.
      const link = new URL(`http://127.0.0.1:${clientPort}/`);
      link.search = new URLSearchParams({ serverUrl: serving.url.href, transport: "http", autoConnect: token, openApp: "overview", appArgs: Buffer.from("{}").toString("base64url"), autoOpen: token }).toString();
      await page.goto(link.href);
      await page.waitForSelector('[data-testid="connection-status"][data-status="connected"]', { timeout: 60_000 });
      await page.waitForSelector('[data-testid="apps-form"][data-app-status="ready"]', { timeout: 60_000 });
      const sandboxOrigin = `http://127.0.0.1:${sandboxPort}`;
      let view: Frame | undefined;
      await expect.poll(() => (view = page.frames().find((frame) => frame.parentFrame()?.url().startsWith(sandboxOrigin) === true)), { timeout: 30_000 }).toBeDefined();
      await view!.waitForSelector("body[data-state=data]");
      await view!.waitForSelector("canvas");

      expect(await view!.$$eval("thead th", (cells) => cells.map((cell) => cell.textContent))).toEqual(OVERVIEW_HEADER);
      expect(await view!.$$eval(".sources a", (links) => links.map((link) => (link as HTMLAnchorElement).href))).toEqual(SOURCES);
      for (const count of await colourCounts(view!, 0, PALETTE.slice(0, 3))) expect(count).toBeGreaterThan(1000);
      const geometry = await viewGeometry(view!);
      expect(geometry.scrollWidth).toBeLessThanOrEqual(geometry.viewport);
      expect(geometry.overflowing).toEqual([]);
      // The view takes the host's style variables: its background is the Inspector's.
      const background = await view!.evaluate(() => {
        const probe = document.createElement("div");
        probe.style.color = getComputedStyle(document.documentElement).getPropertyValue("--color-background-primary");
        document.body.append(probe);
        const expected = getComputedStyle(probe).color;
        probe.remove();
        return { expected, actual: getComputedStyle(document.body).backgroundColor };
      });
      expect(background.actual).toBe(background.expected);
      await screenshot(page, "inspector", page.locator('[data-testid="apps-form"]'));
    } finally {
      await browser.close();
      inspector.kill();
      await serving.close();
      rmSync(home, { recursive: true, force: true });
    }
  }, 180_000);
});
