// Serves the registry of codes-and-urls.ts over stdio; warnings go to stderr, one JSON string per line.
import { buildCodesAndUrls, jsonLinesLogger } from "./codes-and-urls.js";

void buildCodesAndUrls(jsonLinesLogger).serveStdio();
