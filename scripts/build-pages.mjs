#!/usr/bin/env node
// Builds the browser pages of the packages into single self-contained HTML files: each page's
// TypeScript entry is bundled by esbuild (with its dependencies, e.g. Chart.js and ext-apps) and
// inlined with its stylesheet; its Content-Security-Policy allows exactly that one script, by hash,
// and no other origin. Run by `pnpm build` after `tsc -b` (which type-checks the same sources).
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Each page: its entry and stylesheet, where it goes, and the CSP directives beside its script's hash. */
const PAGES = [
  {
    // The data view every registry serves as its MCP Apps resource: no network at all. Written
    // once, as an ES module (esm/data-view.d.ts), which both builds of the registry import when asked.
    package: "packages/registry",
    entry: "view/main.ts",
    stylesheet: "view/view.css",
    output: [{ file: "esm/data-view.js", as: "module" }],
    // Where earlier builds also wrote it: removed, so a package packed from an old checkout still has it once.
    stale: ["dist/data-view.js"],
    title: "sourced data view",
    csp: ["default-src 'none'", "style-src 'unsafe-inline'", "img-src data:", "base-uri 'none'", "form-action 'none'"],
  },
  {
    // The page of `sourced preview`: talks to its own local server and frames the view it serves.
    package: "packages/cli",
    entry: "preview-page/main.ts",
    stylesheet: "preview-page/page.css",
    output: [{ file: "dist/preview/page.html", as: "html" }],
    title: "sourced preview",
    csp: ["default-src 'none'", "style-src 'unsafe-inline'", "connect-src 'self'", "frame-src 'self'", "img-src data:", "base-uri 'none'", "form-action 'none'"],
  },
];

/**
 * zod's `locales` namespace (~260 KiB of 40 languages) comes along with every `import * as z`,
 * though only English is ever configured (zod's own default): bundle that one alone.
 */
const englishZodLocaleOnly = {
  name: "english-zod-locale-only",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/]/.test(args.importer) ? { path: join(dirname(args.importer), "../locales/index.js"), namespace: "zod-locales" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(join(dirname(args.path), "en.js"))};`,
      loader: "js",
      resolveDir: dirname(args.path),
    }));
  },
};

function escapeHtml(text) {
  return text.replace(/[&<>"]/g, (character) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[character]);
}

async function buildPage(page) {
  const packageDir = join(root, page.package);
  // esbuild is a dev dependency of each package that has a page.
  const esbuild = createRequire(join(packageDir, "package.json"))("esbuild");
  const bundle = await esbuild.build({
    entryPoints: [join(packageDir, page.entry)],
    absWorkingDir: packageDir,
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "eof",
    charset: "utf8",
    logLevel: "silent",
    plugins: [englishZodLocaleOnly],
  });
  const script = bundle.outputFiles[0].text.trimEnd();
  // esbuild escapes `</script` in strings; anything left would end the inline script early.
  if (/<\/script/i.test(script)) throw new Error(`${page.entry}: the bundle contains "</script", which cannot be inlined`);
  const css = readFileSync(join(packageDir, page.stylesheet), "utf8");
  if (/<\/style/i.test(css)) throw new Error(`${page.stylesheet}: contains "</style"`);
  const hash = createHash("sha256").update(script, "utf8").digest("base64");
  const csp = [...page.csp, `script-src 'sha256-${hash}'`].join("; ");
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
<style>
${css}</style>
</head>
<body>
<div id="root"></div>
<script>${script}</script>
</body>
</html>
`;
  for (const file of page.stale ?? []) rmSync(join(packageDir, file), { force: true });
  const written = [];
  for (const { file, as } of page.output) {
    const output = join(packageDir, file);
    mkdirSync(dirname(output), { recursive: true });
    const literal = JSON.stringify(html);
    writeFileSync(
      output,
      as === "html" ? html : `// Built by scripts/build-pages.mjs from ${page.entry}.\nexport const html = ${literal};\n`,
    );
    written.push(`${relative(root, output)} (${Math.round(html.length / 1024)} KiB)`);
  }
  return written.join("\n");
}

try {
  const built = await Promise.all(PAGES.map(buildPage));
  if (process.env.SOURCED_BUILD_VERBOSE) console.log(built.join("\n"));
} catch (error) {
  console.error(`build-pages: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
