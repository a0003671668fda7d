import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canNeverBeSource, describeSourceUrlProblem, isSourceUrl } from "../src/url-rule";
// The registry's own rule, from its sources: the analysis depends on no package of ours at run time.
import { describeSourceUrlProblem as registryDescribeSourceUrlProblem, isResourceUriForm, isSourceUrl as registryIsSourceUrl } from "../../registry/src/url-rule";

/*
 * A source the analysis refuses at build time is one no registry accepts at run time: neither an
 * accepted http(s) URL nor a URI a served resource may have. Whatever resources a registry serves,
 * the two never disagree; and the words of a refusal are the net's own, advice included.
 */

const strings = fc.oneof(
  fc.string(),
  fc.constantFrom("memory://graph", "file:///srv/data.json", "./data.json", "cities.csv", "C:\\data\\x.csv", "urn:isbn:0451450523", "HTTPS://example.org/", "example.org", "~/x.json"),
  fc.tuple(fc.constantFrom("memory:", "file:", "urn:", "http:", "https:", "HTTP:", "data:", "JavaScript:", "blob:", "about:", ""), fc.webPath()).map(([scheme, path]) => `${scheme}${path}`),
  fc.webUrl(),
);

describe("the analysis and the run time agree on sources", () => {
  it("what the analysis says can never be a source is neither an accepted URL nor a served resource's URI", () => {
    fc.assert(
      fc.property(strings, (value) => {
        expect(canNeverBeSource(value)).toBe(!registryIsSourceUrl(value) && !isResourceUriForm(value));
        if (!isSourceUrl(value)) expect(describeSourceUrlProblem(value)).toBe(registryDescribeSourceUrlProblem(value));
      }),
      { numRuns: 2000 },
    );
  });

  it("a path or a file: URL is told how to serve the file as a resource; another scheme, that a served resource may be cited", () => {
    for (const path of ["./data/cities.json", "/srv/cities.json", "cities.csv", "C:\\data\\cities.csv", "file:///srv/cities.json"]) {
      expect(describeSourceUrlProblem(path)).toContain('serve the file as a resource and cite the resource\'s URI, registry.resource("cities.');
    }
    expect(describeSourceUrlProblem("example.org")).not.toContain("serve the file");
    expect(describeSourceUrlProblem("memory://graph")).toContain("the URI of a resource this server serves may stand as a source");
  });
});
