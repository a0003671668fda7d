/*
 * Installing the packed packages into a fresh project outside the workspace, as a user would:
 * `packWorkspace()` packs every package once per process, `installProject()` installs a spec
 * with npm or pnpm once per process, and cases share that install through `caseDirectory()`.
 */
export { cleanEnv, packWorkspace, removePackedTarballs, REPO, tarballFiles, tarballName, workspacePackages } from "./pack";
export type { PackedPackage, Tarballs } from "./pack";
export { installProject, MANAGERS, PACKED, removeInstalledProjects } from "./project";
export type { InstalledProject, InstallSpec, Manager, ProjectRunner, Run } from "./project";
export { MCP_CLIENT, SOURCED, TOOLCHAINS } from "./recipes";
