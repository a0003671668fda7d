export { closestMatch } from "./suggest.js";
export { suggestToolName, TOOL_NAME_PATTERN, toolNameProblem } from "./tool-name.js";
export {
  canNeverBeSource,
  contentsUriProblem,
  describeSourceUrlProblem,
  isContentsUri,
  isResourceUriForm,
  isSourceUrl,
  localDataAdvice,
  PUBLISHED_SOURCE_URL_PATTERN,
  SOURCE_URL_PATTERN,
  SOURCE_URL_REGEX,
  toSourceUrl,
  urlRuleProblem,
} from "./url-rule.js";
