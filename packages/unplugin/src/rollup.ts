import { sourced } from "./index.js";

/** The sourced plugin for rollup: `plugins: [sourced()]`. */
export default sourced.rollup;
