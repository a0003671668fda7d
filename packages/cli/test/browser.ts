import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { chromium, type Browser, type Frame, type Locator, type Page } from "playwright-core";
import { BIN, REPO } from "./helpers";

/** Screenshots of every case, kept as test artifacts (gitignored). */
export const ARTIFACTS = path.join(REPO, "test-artifacts/gateway");
/** The screenshots docs/gateway.md shows: rewritten by the tests when SOURCED_UPDATE_SCREENSHOTS=1. */
export const DOC_IMAGES = path.join(REPO, "docs/images");

/** Debian's `chromium` (or CHROMIUM_PATH): no browser is downloaded. */
export function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  for (const directory of (process.env.PATH ?? "").split(path.delimiter)) {
    for (const name of ["chromium", "chromium-browser"]) {
      const candidate = path.join(directory, name);
      if (fs.existsSync(candidate)) return candidate;
    }
  }
  throw new Error("no chromium on PATH: install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH");
}

export function launchChromium(): Promise<Browser> {
  // --no-sandbox: CI runs as root, where Chromium's own sandbox cannot start. The others keep
  // Chromium from reaching any network service of its own and from using a GPU a CI machine lacks.
  const args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];
  return chromium.launch({ executablePath: chromiumPath(), args, headless: true });
}

export interface RunningPreview {
  readonly url: string;
  readonly output: () => string;
  stop(): Promise<number | null>;
}

/** Starts the real `sourced preview` binary (with `env` over the test's environment) and waits for the URL it prints. */
export async function startPreview(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<RunningPreview> {
  const child: ChildProcess = spawn(process.execPath, [BIN, "preview", ...args], { cwd: REPO, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NODE_OPTIONS: "", ...env } });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += String(chunk)));
  child.stderr!.on("data", (chunk) => (output += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sourced preview printed no URL within 30 s:\n${output}`)), 30_000);
    const poll = setInterval(() => {
      const match = /open (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
      if (match) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve(match[1]!);
      }
    }, 50);
    void exited.then((code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`sourced preview exited (${code}) before printing its URL:\n${output}`));
    });
  });
  return {
    url,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGINT");
      return exited;
    },
  };
}

/** Selects a tool, fills its form and calls it; returns the data view's frame once the result was delivered to it. */
export async function callTool(page: Page, tool: string, fields: Record<string, string> = {}): Promise<Frame | undefined> {
  await page.click(`#tools button[data-tool="${tool}"]`);
  await page.waitForSelector(`#call-form h2:text-is("${tool}")`);
  for (const [name, value] of Object.entries(fields)) await page.fill(`#arg-${name}`, value);
  await page.click("#call-form button[type=submit]");
  await page.waitForSelector("#output[data-kind]");
  if ((await page.$("#view-frame")) === null) return undefined;
  await page.waitForSelector("#view-frame[data-state=delivered]");
  const handle = await page.$("#view-frame");
  const frame = await handle!.contentFrame();
  await frame!.waitForSelector("body[data-state]");
  return frame!;
}

/**
 * Writes a screenshot (of the whole page, or of one element) as a test artifact and, when asked,
 * as the docs' image of the same name.
 */
export async function screenshot(page: Page, name: string, element?: Locator): Promise<void> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const image = element === undefined ? await page.screenshot({ fullPage: true }) : await element.screenshot();
  fs.writeFileSync(path.join(ARTIFACTS, `${name}.png`), image);
  if (process.env.SOURCED_UPDATE_SCREENSHOTS === "1") {
    fs.mkdirSync(DOC_IMAGES, { recursive: true });
    fs.writeFileSync(path.join(DOC_IMAGES, `gateway-${name}.png`), image);
  }
}
