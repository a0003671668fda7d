// Serves the fourth round's registry over stdio; warnings go to stderr, one JSON string per line.
import { buildFourthRound, jsonLinesLogger } from "./fourth-round.js";

void buildFourthRound(jsonLinesLogger).serveStdio();
