import { sourced } from "./index.js";

/** The sourced plugin for esbuild: `plugins: [sourced()]`. */
export default sourced.esbuild;
