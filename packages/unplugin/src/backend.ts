import { loadTypeScript, type LoadedTypeScript } from "@sourced/cli";

/**
 * The TypeScript the classic backend runs on for a project: the same choice `sourced check` makes
 * (the project's own `typescript`, else `@typescript/typescript6` beside TypeScript 7, else ours).
 * Which backend runs is `chooseBackend`'s choice (session.ts).
 */
export function loadBackend(projectDirectory: string): LoadedTypeScript {
  return loadTypeScript(projectDirectory);
}
