import requireDataToolOutput from "./require-data-tool-output";

export default {
  "require-data-tool-output": requireDataToolOutput,
};
