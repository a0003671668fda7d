/// <reference lib="dom" />
import { execFile, spawn } from "node:child_process";
import * as fs from "node:fs";
import { request } from "node:http";
import * as path from "node:path";
import { promisify } from "node:util";
import type { Browser, BrowserContext, Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool, launchChromium, screenshot, startPreview, type RunningPreview } from "./browser";
import { REPO, sourced } from "./helpers";

// `sourced preview` end to end: the real binary, real servers (stdio and Streamable HTTP), and
// headless Chromium loading the page and the data view it frames through ext-apps' AppBridge.

const CITIES = path.join(REPO, "fixtures/projects/cities");
const CITIES_OUT = path.join(CITIES, "out/preview-test");
// Relative to the repository (the previews' working directory): the page, and so the screenshots, show them.
const CITIES_SERVER = path.relative(REPO, path.join(CITIES_OUT, "server.js"));
const GATEWAY_SERVER = "packages/cli/test/servers/gateway-server.mjs";
const FORCED = 'Figures as published: <script>alert(1)</script><img src=x onerror="window.pwned=1"> & "quoted"\n  second line, indented';

let browser: Browser;
let context: BrowserContext;
const previews: RunningPreview[] = [];
/** Every request the browser made, and every dialog a script opened (none may). */
const requests: string[] = [];
const dialogs: string[] = [];

beforeAll(async () => {
  // The seed's server, built as its users build it (tspc with the transformer), into its own folder.
  const tspc = path.join(CITIES, "node_modules/ts-patch/bin/tspc.js");
  fs.rmSync(CITIES_OUT, { recursive: true, force: true });
  // tspc exits non-zero for the seed's deliberately non-compliant tool; the rest is emitted.
  await promisify(execFile)(process.execPath, [tspc, "-p", CITIES, "--outDir", CITIES_OUT]).catch(() => undefined);
  if (!fs.existsSync(path.join(CITIES_OUT, "server.js"))) throw new Error("tspc emitted no server.js for fixtures/projects/cities");
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  context.on("request", (request) => void requests.push(request.url()));
  // Nothing outside 127.0.0.1 is reachable from a test: a link the user opens gets a stub page.
  await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<title>opened</title>" }));
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  for (const preview of previews) await preview.stop();
  fs.rmSync(CITIES_OUT, { recursive: true, force: true });
});

async function open(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{ page: Page; preview: RunningPreview }> {
  const preview = await startPreview(args, env);
  previews.push(preview);
  const page = await context.newPage();
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(preview.url);
  await page.waitForSelector("#tools button, #no-tools");
  return { page, preview };
}

/** Pixels of a canvas that are not transparent, and whether one of them has the given colour. */
function canvasPixels(frame: Frame, index: number, rgb: readonly [number, number, number]): Promise<{ painted: number; colour: number }> {
  return frame.evaluate(
    ({ index, rgb }) => {
      const canvas = document.querySelectorAll("canvas")[index]!;
      const { data } = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height);
      let painted = 0;
      let colour = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3]! > 0) painted++;
        if (Math.abs(data[i]! - rgb[0]) < 8 && Math.abs(data[i + 1]! - rgb[1]) < 8 && Math.abs(data[i + 2]! - rgb[2]) < 8 && data[i + 3]! > 200) colour++;
      }
      return { painted, colour };
    },
    { index, rgb },
  );
}

describe("sourced preview -- node build/server.js (the seed's cities server, stdio)", () => {
  let page: Page;
  let preview: RunningPreview;
  beforeAll(async () => {
    ({ page, preview } = await open(["--", "node", CITIES_SERVER]));
  });

  it("prints its URL on 127.0.0.1 and lists the server's verified tools", async () => {
    expect(preview.output()).toMatch(/^sourced preview of cities 1\.0\.0 \(stdio: node fixtures\/projects\/cities\/out\/preview-test\/server\.js\)\n {2}open http:\/\/127\.0\.0\.1:\d+\/\n/);
    expect(await page.$$eval("#tools button", (buttons) => buttons.map((button) => button.dataset.tool))).toEqual(["list_cities", "population"]);
  });

  it("list_cities: a table City / Population with 3 rows, and one link to its source, opened by the host", async () => {
    const frame = (await callTool(page, "list_cities"))!;
    expect(await page.textContent("#content-pane pre")).toBe(
      "The 3 most populated cities are Tokyo (37,400,068), Delhi (30,290,936) and Shanghai (27,058,479).",
    );
    expect(await frame.$$eval('thead th[scope="col"]', (cells) => cells.map((cell) => cell.textContent))).toEqual(["City", "Population"]);
    const rows = await frame.$$eval("tbody tr", (trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => [td.textContent, getComputedStyle(td).textAlign])));
    expect(rows).toEqual([
      [["Tokyo", "left"], ["37400068", "right"]],
      [["Delhi", "left"], ["30290936", "right"]],
      [["Shanghai", "left"], ["27058479", "right"]],
    ]);
    const links = await frame.$$eval("a", (anchors) => anchors.map((a) => ({ href: a.getAttribute("href"), rel: a.getAttribute("rel"), text: a.textContent })));
    expect(links).toEqual([{ href: "https://example.org/cities-data", rel: "noopener noreferrer", text: "example.orghttps://example.org/cities-data" }]);
    // The view asked for nothing but its own frame: no network access.
    expect(requests.filter((url) => !url.startsWith(preview.url))).toEqual([]);
    await screenshot(page, "list-cities");

    const popup = page.waitForEvent("popup");
    await frame.click("a");
    expect((await popup).url()).toBe("https://example.org/cities-data");
    await page.waitForSelector('#activity li:text-is("Opened https://example.org/cities-data")');
  });

  it("frames the view with a CSP that reaches no origin, and answers only its own address", async () => {
    const frameUrl = new URL((await page.getAttribute("#view-frame", "src"))!, preview.url);
    const response = await fetch(frameUrl);
    expect(response.headers.get("content-security-policy")).toMatch(/^default-src 'none'; .*connect-src 'none'; .*sandbox allow-scripts$/);
    const status = (host: string, path: string, method = "GET") =>
      new Promise<number | undefined>((resolve, reject) => {
        const req = request(new URL(path, preview.url), { method, headers: { host, "content-type": "application/json" } }, (res) => {
          res.resume();
          resolve(res.statusCode);
        });
        req.on("error", reject);
        req.end(method === "POST" ? JSON.stringify({ name: "list_cities", arguments: {} }) : undefined);
      });
    // DNS rebinding: a name that resolves to 127.0.0.1 is still not this preview's address.
    expect(await status("attacker.example:80", "/api/tools")).toBe(403);
    expect(await status("attacker.example:80", "/api/call", "POST")).toBe(403);
    expect(await status(new URL(preview.url).host, "/api/tools")).toBe(200);
  });

  it("population: arguments come from a form generated from the input schema", async () => {
    const frame = (await callTool(page, "population", { city: "Delhi" }))!;
    expect(await page.textContent("#content-pane pre")).toBe("Delhi has 30,290,936 inhabitants.");
    expect(await page.textContent('label[for="arg-city"]')).toBe("city (required)");
    expect(await frame.$$eval("a", (anchors) => anchors.map((a) => a.href))).toEqual(["https://example.org/cities-data"]);
  });

  it("follows the host's theme", async () => {
    await callTool(page, "list_cities");
    await page.selectOption("#theme", "dark");
    const frame = (await (await page.$("#view-frame"))!.contentFrame())!;
    await frame.waitForFunction(() => document.documentElement.dataset.theme === "dark");
    expect(await frame.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(30, 31, 34)");
    await screenshot(page, "dark-theme");
    await page.selectOption("#theme", "light");
    await frame.waitForFunction(() => document.documentElement.dataset.theme === "light");
  });
});

describe("sourced preview on every field of the view (stdio)", () => {
  let page: Page;
  beforeAll(async () => {
    ({ page } = await open(["--", "node", GATEWAY_SERVER]));
  });

  it("charts: a bar and a line chart, each drawn on its own canvas in its configured colours", async () => {
    const frame = (await callTool(page, "city_charts"))!;
    expect(await frame.$$eval("canvas", (canvases) => canvases.map((canvas) => canvas.getAttribute("aria-label")))).toEqual(["Population", "Growth"]);
    const bar = await canvasPixels(frame, 0, [0x4e, 0x79, 0xa7]);
    const line = await canvasPixels(frame, 1, [0xe1, 0x57, 0x59]);
    expect(bar.painted).toBeGreaterThan(5000);
    expect(bar.colour).toBeGreaterThan(1000);
    expect(line.painted).toBeGreaterThan(2000);
    expect(line.colour).toBeGreaterThan(100);
    // The view reports its size: the host grows the frame to fit both charts.
    expect(await page.$eval("#view-frame", (iframe) => iframe.getBoundingClientRect().height)).toBeGreaterThan(400);
    expect(await frame.$$eval("a .domain", (domains) => domains.map((domain) => domain.textContent))).toEqual(["example.org", "example.com"]);
    await screenshot(page, "charts");

    // The host's container changes width (at 1,000 px the panes stack, and the view's gets wider):
    // the view fills its frame, and the charts redraw to the new width, both ways.
    const sideBySide = await frame.$eval("canvas", (canvas) => canvas.clientWidth);
    await page.setViewportSize({ width: 1000, height: 900 });
    const frameWidth = await page.$eval("#view-frame", (iframe) => iframe.clientWidth);
    await frame.waitForFunction((width) => document.documentElement.clientWidth === width, frameWidth);
    await frame.waitForFunction((before) => document.querySelector("canvas")!.clientWidth > before, sideBySide);
    await page.setViewportSize({ width: 1400, height: 900 });
    await frame.waitForFunction((before) => document.querySelector("canvas")!.clientWidth <= before, sideBySide);
  });

  it("force: shown exactly as text, marked as not written by the model; no script in it runs", async () => {
    const frame = (await callTool(page, "verbatim_notice"))!;
    expect(await frame.textContent(".force pre")).toBe(FORCED);
    expect(await frame.textContent(".force-label")).toBe("Verbatim from the tool — not written by the model");
    expect(await frame.$$eval("#root script, #root img", (nodes) => nodes.length)).toBe(0);
    expect(await frame.evaluate(() => (window as unknown as { pwned?: unknown }).pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    await screenshot(page, "force");
  });

  it("a wide table scrolls inside its own region", async () => {
    const frame = (await callTool(page, "wide_table"))!;
    expect(await frame.$$eval('th[scope="col"]', (cells) => cells.length)).toBe(12);
    const region = await frame.$eval(".table-scroll", (element) => ({ scroll: element.scrollWidth, client: element.clientWidth, overflow: getComputedStyle(element).overflowX }));
    expect(region.overflow).toBe("auto");
    expect(region.scroll).toBeGreaterThan(region.client);
  });

  it("a result the net refused: its error text, never partial data", async () => {
    const frame = (await callTool(page, "unsourced_rumour"))!;
    const refusal = await page.textContent("#refusal");
    expect(refusal).toContain('Tool "unsourced_rumour" returned a result that breaks the DataToolOutput contract, so it was not sent');
    expect(refusal).toContain("structuredContent.sources");
    expect(await frame.textContent(".error pre")).toContain("breaks the DataToolOutput contract");
    expect(await frame.$$eval("table, a, canvas", (nodes) => nodes.length)).toBe(0);
    expect(await page.textContent("#raw-json")).not.toContain("Shanghai will overtake");
    expect(await page.textContent("#raw-json")).toContain('"isError": true');
    await screenshot(page, "refused");
  });

  it("the form follows the input schema: number, choice, checkbox, optional text", async () => {
    await page.click('#tools button[data-tool="cities_above"]');
    await page.waitForSelector('#call-form h2:text-is("cities_above")');
    const fields = await page.$$eval("#call-form .field", (rows) =>
      rows.map((row) => {
        const input = row.querySelector("input, select, textarea") as HTMLInputElement;
        return [row.querySelector("label")!.textContent, input.tagName.toLowerCase(), input.type];
      }),
    );
    expect(fields).toEqual([
      ["min (required)", "input", "number"],
      ["unit (required)", "select", "select-one"],
      ["largestFirst", "input", "checkbox"],
      ["note", "input", "text"],
    ]);
    expect(await page.textContent("#call-form .hint")).toBe("Smallest population, in millions");
    // A required field left empty is caught by the form, before any call.
    await page.fill("#arg-min", "");
    await page.click("#call-form button[type=submit]");
    expect(await page.textContent("#call-form .problem")).toBe("min is required");
    await page.fill("#arg-min", "28");
    await page.selectOption("#arg-unit", { label: "people" });
    await page.check("#arg-largestFirst");
    await page.click("#call-form button[type=submit]");
    await page.waitForSelector("#content-pane pre");
    expect(await page.textContent("#content-pane pre")).toBe('Tokyo 37400000, Delhi 30300000; arguments {"min":28,"unit":"people","largestFirst":true}');
  });

  it("a tool with ui: false is shown as hosts show it: text only", async () => {
    expect(await callTool(page, "text_only")).toBeUndefined();
    expect(await page.textContent("#view-pane")).toContain("declares no UI resource");
  });

  it.each([900, 420])("at %i px the panes stack: nothing overflows sideways, and the view takes the call's whole width", async (width) => {
    await page.setViewportSize({ width, height: 900 });
    try {
      const frame = (await callTool(page, "city_charts"))!;
      const layout = await page.evaluate(() => {
        const box = (selector: string) => document.querySelector(selector)!.getBoundingClientRect();
        return {
          scrollWidth: document.documentElement.scrollWidth,
          panes: ["#content-pane", "#view-pane", "#raw-pane"].map((selector) => ({ left: Math.round(box(selector).left), top: box(selector).top })),
          output: box("#output").width,
          pane: box("#view-pane").width,
          tools: box("#tools"),
          call: box("#call"),
        };
      });
      expect(layout.scrollWidth).toBeLessThanOrEqual(width);
      // One column: every pane starts at the same left edge, one under the other, as wide as the call.
      expect(new Set(layout.panes.map((pane) => pane.left)).size).toBe(1);
      expect(layout.panes.map((pane) => pane.top)).toEqual([...layout.panes.map((pane) => pane.top)].sort((a, b) => a - b));
      expect(layout.pane).toBeCloseTo(layout.output, 0);
      // In a phone-sized window the tools sit above the call instead of beside it.
      if (width < 720) expect(layout.tools.bottom).toBeLessThanOrEqual(layout.call.top);
      const view = await frame.evaluate(() => ({ width: document.documentElement.clientWidth, scrollWidth: document.documentElement.scrollWidth }));
      expect(view.scrollWidth).toBeLessThanOrEqual(view.width);
    } finally {
      await page.setViewportSize({ width: 1400, height: 900 });
    }
  });
});

describe("sourced preview starts the server in the user's environment, and shows its stderr", () => {
  const ENV_SERVER = "packages/cli/test/servers/env-server.mjs";

  it("passes the preview's environment and --env to the server; what the server writes to stderr reaches the page's activity and the terminal", async () => {
    const { page, preview } = await open(["--env", "REGION=eu-west", "--env", "API_KEY=overridden", "--", "node", ENV_SERVER], { API_KEY: "from-the-shell", REGION: "from-the-shell" });
    await callTool(page, "environment");
    // --env wins over the shell's variable of the same name; the others come from the shell.
    expect(await page.textContent("#content-pane pre")).toBe("API_KEY=overridden REGION=eu-west");
    await page.waitForSelector('#activity li.stderr:text-is("server: environment: called with API_KEY set")');
    await expect.poll(() => preview.output()).toContain("[server] environment: called with API_KEY set\n");
  });

  it("NODE_ENV=production reaches the server: its unverified tool is refused, and the page and the terminal say why", async () => {
    const { page, preview } = await open(["--", "node", ENV_SERVER], { NODE_ENV: "production" });
    expect(await page.textContent("#no-tools")).toBe(
      "The server offers no tools. What it wrote to stderr is under Activity: a tool it refused says why there.",
    );
    const refusal = /tool "environment" \(.*env-server\.mjs:\d+:\d+\) was not registered: requireVerified is on/;
    await expect.poll(() => page.$$eval("#activity li.stderr", (items) => items.map((item) => item.textContent).join("\n"))).toMatch(refusal);
    expect(preview.output()).toMatch(new RegExp(`\\[server\\] .*${refusal.source}`));
  });
});

describe("a server without the net (hostile results)", () => {
  it("links that are not http/https are shown as refused text, never made links", async () => {
    const { page } = await open(["--", "node", "packages/cli/test/servers/hostile-server.mjs"]);
    const frame = (await callTool(page, "bad_links"))!;
    expect(await frame.$$eval("a", (anchors) => anchors.map((a) => a.getAttribute("href")))).toEqual(["https://example.org/ok"]);
    expect(await frame.$$eval(".sources li.refused", (items) => items.map((item) => item.textContent))).toEqual([
      "Not a web link, not opened: javascript:alert(document.domain)",
      "Not a web link, not opened: data:text/html,<script>alert(1)</script>",
      "Not a web link, not opened: 42",
    ]);
    await frame.click(".sources li.refused >> nth=0");
    expect(dialogs).toEqual([]);
  });
});

describe("sourced preview --url (Streamable HTTP)", () => {
  it("connects to the endpoint and renders the view", async () => {
    const server = spawn(process.execPath, [GATEWAY_SERVER, "--http"], { cwd: REPO, stdio: ["ignore", "pipe", "inherit"] });
    try {
      const endpoint = await new Promise<string>((resolve, reject) => {
        let output = "";
        server.stdout.on("data", (chunk) => {
          output += String(chunk);
          const match = /listening on (\S+)/.exec(output);
          if (match) resolve(match[1]!);
        });
        server.once("exit", (code) => reject(new Error(`the HTTP server exited (${code}): ${output}`)));
      });
      const { page, preview } = await open(["--url", endpoint]);
      expect(preview.output()).toContain(`(${endpoint})`);
      const frame = (await callTool(page, "city_charts"))!;
      expect(await frame.$$eval("canvas", (canvases) => canvases.length)).toBe(2);
      expect(await preview.stop()).toBe(0);
    } finally {
      server.kill();
    }
  });
});

describe("sourced preview: usage errors", () => {
  it.each([
    [[], /missing server: write 'sourced preview -- node build\/server\.js'/],
    [["node", "server.js"], /unexpected argument 'node': put the server's command after '--', e\.g\. 'sourced preview -- node server\.js'\.$/m],
    [["build/server.mjs"], /unexpected argument 'build\/server\.mjs': put the server's command after '--', e\.g\. 'sourced preview -- node build\/server\.mjs'\.$/m],
    [["--env", "API_KEY", "--", "node", "server.js"], /'--env API_KEY' is not KEY=VALUE: write e\.g\. '--env API_KEY=value'/],
    [["--env", "A=1", "--url", "http://127.0.0.1:9/mcp"], /'--env' sets variables for a server the preview starts/],
    [["--url", "ftp://example.org/mcp"], /must be an http: or https: URL/],
    [["--port", "http"], /'--port http' is not a port/],
    [["--url", "http://127.0.0.1:9/mcp", "--", "node", "server.js"], /give either '--url .*' or a command after '--', not both/],
  ])("sourced preview %j", (args, message) => {
    const run = sourced(["preview", ...args]);
    expect(run.stderr).toMatch(message);
    expect(run.status).toBe(2);
  });

  it("a command that is no MCP server: exit 2, what it wrote first, then why the preview stops", () => {
    const run = sourced(["preview", "--", process.execPath, "-e", "console.error('no server here'); process.exit(3)"]);
    expect(run.stderr).toMatch(/^\[server\] no server here\nsourced: error: cannot start '.*' as an MCP server over stdio: .+\n$/);
    expect(run.status).toBe(2);
  });
});
