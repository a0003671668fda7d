import { sourced } from "./index.js";

/** The sourced plugin for vite: `plugins: [sourced()]`. */
export default sourced.vite;
