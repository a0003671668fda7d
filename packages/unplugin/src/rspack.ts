import { sourced } from "./index.js";

/** The sourced plugin for rspack: `plugins: [sourced()]`. */
export default sourced.rspack;
