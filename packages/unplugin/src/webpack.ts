import { sourced } from "./index.js";

/** The sourced plugin for webpack: `plugins: [sourced()]`. */
export default sourced.webpack;
