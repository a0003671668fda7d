// Serves the hostile registry over stdio; warnings go to stderr, one JSON string per line.
import { buildHostileRegistry, jsonLinesLogger } from "./hostile.js";

void buildHostileRegistry(jsonLinesLogger).serveStdio();
