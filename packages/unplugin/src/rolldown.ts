import { sourced } from "./index.js";

/** The sourced plugin for rolldown: `plugins: [sourced()]`. */
export default sourced.rolldown;
