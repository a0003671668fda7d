import { PAIRS } from "./support";
import { defineTransformerSuite } from "./suite";

defineTransformerSuite(PAIRS.find((pair) => pair.id === "ts6")!);
