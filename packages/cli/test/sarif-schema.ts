/**
 * The essential rules of the SARIF 2.1.0 schema (OASIS, sarif-schema-2.1.0.json) for the objects
 * `sourced check --format sarif` writes, plus what GitHub code scanning requires on top (a location
 * per result, relative URIs). Checked by hand, offline: every object's properties must be ones the
 * schema defines, required ones present, enums and ranges respected. Returns the problems found.
 */
export function sarifProblems(log: unknown): string[] {
  const problems: string[] = [];
  const fail = (where: string, what: string): void => {
    problems.push(`${where}: ${what}`);
  };

  const object = (value: unknown, where: string, allowed: readonly string[], required: readonly string[] = []): value is Record<string, unknown> => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      fail(where, `must be an object, got ${JSON.stringify(value)}`);
      return false;
    }
    for (const key of Object.keys(value)) if (!allowed.includes(key)) fail(where, `unknown property '${key}'`);
    for (const key of required) if (!(key in value)) fail(where, `missing required property '${key}'`);
    return true;
  };
  const string = (value: unknown, where: string, nonEmpty = true): value is string => {
    if (typeof value !== "string" || (nonEmpty && value.length === 0)) {
      fail(where, `must be a${nonEmpty ? " non-empty" : ""} string`);
      return false;
    }
    return true;
  };
  const integer = (value: unknown, where: string, minimum: number): value is number => {
    if (!Number.isInteger(value) || (value as number) < minimum) {
      fail(where, `must be an integer >= ${minimum}, got ${JSON.stringify(value)}`);
      return false;
    }
    return true;
  };
  const absoluteUri = (value: unknown, where: string): void => {
    if (string(value, where) && !/^[a-z][a-z0-9+.-]*:/i.test(value)) fail(where, `must be an absolute URI, got '${value}'`);
  };
  const message = (value: unknown, where: string): void => {
    if (object(value, where, ["text", "markdown", "id", "arguments", "properties"], ["text"])) string(value["text"], `${where}.text`);
  };
  const multiformat = (value: unknown, where: string): void => {
    if (object(value, where, ["text", "markdown", "properties"], ["text"])) {
      string(value["text"], `${where}.text`);
      if ("markdown" in value) string(value["markdown"], `${where}.markdown`);
    }
  };
  const level = (value: unknown, where: string): void => {
    if (!["none", "note", "warning", "error"].includes(value as string)) fail(where, `must be none|note|warning|error, got ${JSON.stringify(value)}`);
  };
  const propertyBag = (value: unknown, where: string): void => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) fail(where, "must be an object (property bag)");
    else if ("tags" in value && !(Array.isArray(value.tags) && value.tags.every((tag) => typeof tag === "string"))) fail(`${where}.tags`, "must be an array of strings");
  };

  if (!object(log, "sarifLog", ["$schema", "version", "runs", "inlineExternalProperties", "properties"], ["version", "runs"])) return problems;
  if (log["version"] !== "2.1.0") fail("sarifLog.version", `must be "2.1.0"`);
  if ("$schema" in log) absoluteUri(log["$schema"], "sarifLog.$schema");
  const runs = log["runs"];
  if (!Array.isArray(runs) || runs.length === 0) return [...problems, "sarifLog.runs: must be a non-empty array"];

  runs.forEach((run: unknown, r) => {
    const at = `runs[${r}]`;
    const runKeys = ["tool", "invocations", "results", "originalUriBaseIds", "columnKind", "automationDetails", "artifacts", "properties", "language"];
    if (!object(run, at, runKeys, ["tool"])) return;
    if ("columnKind" in run && !["utf16CodeUnits", "unicodeCodePoints"].includes(run["columnKind"] as string)) fail(`${at}.columnKind`, "must be utf16CodeUnits or unicodeCodePoints");

    // tool.driver
    const ruleIds: string[] = [];
    if (object(run["tool"], `${at}.tool`, ["driver", "extensions", "properties"], ["driver"])) {
      const driver = run["tool"]["driver"];
      const driverKeys = ["name", "version", "semanticVersion", "informationUri", "rules", "organization", "fullName", "properties", "notifications"];
      if (object(driver, `${at}.tool.driver`, driverKeys, ["name"])) {
        string(driver["name"], `${at}.tool.driver.name`);
        if ("version" in driver) string(driver["version"], `${at}.tool.driver.version`);
        if ("semanticVersion" in driver && string(driver["semanticVersion"], `${at}.tool.driver.semanticVersion`) && !/^\d+\.\d+\.\d+/.test(driver["semanticVersion"])) {
          fail(`${at}.tool.driver.semanticVersion`, "must be a semantic version");
        }
        if ("informationUri" in driver) absoluteUri(driver["informationUri"], `${at}.tool.driver.informationUri`);
        const rules = driver["rules"] ?? [];
        if (!Array.isArray(rules)) fail(`${at}.tool.driver.rules`, "must be an array");
        else
          rules.forEach((rule: unknown, i) => {
            const where = `${at}.tool.driver.rules[${i}]`;
            const ruleKeys = ["id", "name", "shortDescription", "fullDescription", "help", "helpUri", "defaultConfiguration", "properties", "messageStrings"];
            if (!object(rule, where, ruleKeys, ["id"])) return;
            if (string(rule["id"], `${where}.id`)) {
              if (ruleIds.includes(rule["id"])) fail(`${where}.id`, `duplicate rule id '${rule["id"]}'`);
              ruleIds.push(rule["id"]);
            }
            if ("name" in rule) string(rule["name"], `${where}.name`);
            for (const key of ["shortDescription", "fullDescription", "help"]) if (key in rule) multiformat(rule[key], `${where}.${key}`);
            if ("helpUri" in rule) absoluteUri(rule["helpUri"], `${where}.helpUri`);
            if ("defaultConfiguration" in rule && object(rule["defaultConfiguration"], `${where}.defaultConfiguration`, ["enabled", "level", "rank", "parameters", "properties"])) {
              if ("level" in rule["defaultConfiguration"]) level(rule["defaultConfiguration"]["level"], `${where}.defaultConfiguration.level`);
            }
            if ("properties" in rule) propertyBag(rule["properties"], `${where}.properties`);
          });
      }
    }

    // originalUriBaseIds: each an absolute URI ending with a slash (SARIF §3.14.14).
    const baseIds = new Set<string>();
    if ("originalUriBaseIds" in run && object(run["originalUriBaseIds"], `${at}.originalUriBaseIds`, Object.keys(run["originalUriBaseIds"] as object))) {
      for (const [id, value] of Object.entries(run["originalUriBaseIds"] as Record<string, unknown>)) {
        baseIds.add(id);
        if (object(value, `${at}.originalUriBaseIds.${id}`, ["uri", "uriBaseId", "index", "description", "properties"])) {
          absoluteUri(value["uri"], `${at}.originalUriBaseIds.${id}.uri`);
          if (typeof value["uri"] === "string" && !value["uri"].endsWith("/")) fail(`${at}.originalUriBaseIds.${id}.uri`, "must end with '/'");
        }
      }
    }

    const location = (value: unknown, where: string): void => {
      if (!object(value, where, ["physicalLocation", "logicalLocations", "message", "id", "properties"])) return;
      if (!object(value["physicalLocation"], `${where}.physicalLocation`, ["artifactLocation", "region", "contextRegion", "address", "properties"], ["artifactLocation"])) return;
      const physical = value["physicalLocation"];
      const artifact = physical["artifactLocation"];
      if (object(artifact, `${where}.physicalLocation.artifactLocation`, ["uri", "uriBaseId", "index", "description", "properties"], ["uri"])) {
        const uri = artifact["uri"];
        if (string(uri, `${where}.physicalLocation.artifactLocation.uri`)) {
          if (/^[a-z][a-z0-9+.-]*:/i.test(uri) || uri.startsWith("/")) fail(`${where}.physicalLocation.artifactLocation.uri`, `must be relative, got '${uri}'`);
          if (/[\s\\]/.test(uri)) fail(`${where}.physicalLocation.artifactLocation.uri`, `must be percent-encoded with '/' separators, got '${uri}'`);
        }
        if ("uriBaseId" in artifact && !baseIds.has(artifact["uriBaseId"] as string)) fail(`${where}.physicalLocation.artifactLocation.uriBaseId`, "must be defined in originalUriBaseIds");
      }
      if ("region" in physical && object(physical["region"], `${where}.physicalLocation.region`, ["startLine", "startColumn", "endLine", "endColumn", "charOffset", "charLength", "snippet", "message", "properties"], ["startLine"])) {
        const region = physical["region"];
        const r = `${where}.physicalLocation.region`;
        integer(region["startLine"], `${r}.startLine`, 1);
        if ("startColumn" in region) integer(region["startColumn"], `${r}.startColumn`, 1);
        if ("endLine" in region && integer(region["endLine"], `${r}.endLine`, 1) && (region["endLine"] as number) < (region["startLine"] as number)) fail(`${r}.endLine`, "must not precede startLine");
        if ("endColumn" in region && integer(region["endColumn"], `${r}.endColumn`, 1) && (region["endLine"] ?? region["startLine"]) === region["startLine"] && (region["endColumn"] as number) < ((region["startColumn"] as number | undefined) ?? 1)) {
          fail(`${r}.endColumn`, "must not precede startColumn on the same line");
        }
      }
    };

    const results = run["results"];
    if (!Array.isArray(results)) fail(`${at}.results`, "must be an array (GitHub requires it, even empty)");
    else
      results.forEach((result: unknown, i) => {
        const where = `${at}.results[${i}]`;
        const resultKeys = ["ruleId", "ruleIndex", "rule", "level", "kind", "message", "locations", "partialFingerprints", "fingerprints", "properties", "relatedLocations"];
        if (!object(result, where, resultKeys, ["message"])) return;
        message(result["message"], `${where}.message`);
        if (string(result["ruleId"], `${where}.ruleId`) && !ruleIds.includes(result["ruleId"])) fail(`${where}.ruleId`, `'${result["ruleId"]}' is not a rule of the driver`);
        if ("ruleIndex" in result && integer(result["ruleIndex"], `${where}.ruleIndex`, 0) && ruleIds[result["ruleIndex"] as number] !== result["ruleId"]) {
          fail(`${where}.ruleIndex`, `rules[${String(result["ruleIndex"])}] is not '${String(result["ruleId"])}'`);
        }
        if ("level" in result) level(result["level"], `${where}.level`);
        const locations = result["locations"];
        if (!Array.isArray(locations) || locations.length === 0) fail(`${where}.locations`, "GitHub requires at least one location");
        else locations.forEach((value, j) => location(value, `${where}.locations[${j}]`));
        for (const key of ["partialFingerprints", "fingerprints"]) {
          if (key in result && object(result[key], `${where}.${key}`, Object.keys(result[key] as object))) {
            for (const [name, value] of Object.entries(result[key] as Record<string, unknown>)) string(value, `${where}.${key}.${name}`);
          }
        }
        if ("properties" in result) propertyBag(result["properties"], `${where}.properties`);
      });

    const invocations = run["invocations"] ?? [];
    if (!Array.isArray(invocations)) fail(`${at}.invocations`, "must be an array");
    else
      invocations.forEach((invocation: unknown, i) => {
        const where = `${at}.invocations[${i}]`;
        if (!object(invocation, where, ["executionSuccessful", "toolExecutionNotifications", "toolConfigurationNotifications", "exitCode", "commandLine", "properties"], ["executionSuccessful"])) return;
        if (typeof invocation["executionSuccessful"] !== "boolean") fail(`${where}.executionSuccessful`, "must be a boolean");
        const notifications = invocation["toolExecutionNotifications"] ?? [];
        if (!Array.isArray(notifications)) fail(`${where}.toolExecutionNotifications`, "must be an array");
        else
          notifications.forEach((notification: unknown, j) => {
            const n = `${where}.toolExecutionNotifications[${j}]`;
            if (!object(notification, n, ["message", "level", "locations", "descriptor", "associatedRule", "exception", "timeUtc", "properties"], ["message"])) return;
            message(notification["message"], `${n}.message`);
            if ("level" in notification) level(notification["level"], `${n}.level`);
            if ("descriptor" in notification && object(notification["descriptor"], `${n}.descriptor`, ["id", "index", "guid", "toolComponent", "properties"])) string(notification["descriptor"]["id"], `${n}.descriptor.id`);
            if ("locations" in notification) (notification["locations"] as unknown[]).forEach((value, k) => location(value, `${n}.locations[${k}]`));
          });
      });
  });
  return problems;
}
