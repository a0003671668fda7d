import { loadTypeScript, type LoadedTypeScript } from "@sourced/cli";

/**
 * The TypeScript the analysis runs on for a project: the same choice `sourced check` makes (the
 * project's own `typescript`, else `@typescript/typescript6` beside TypeScript 7, else ours). The
 * one place the plugin chooses a backend.
 */
export function loadBackend(projectDirectory: string): LoadedTypeScript {
  return loadTypeScript(projectDirectory);
}
