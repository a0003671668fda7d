import { McpServer, ResourceTemplate } from "@modelcontextprotocol/server";
import { describe, expect, test } from "vitest";
import { createRegistry, type Registry } from "../dist/index.js";
import { answersInMemory, checkInMemory, checkOverHttp, type AnyClient } from "./both-clients.js";
import { recordingLogger } from "./helpers.js";

/*
 * A resource the SDK keeps under a URI no read can reach. The SDK's McpServer keeps a static
 * resource under its URI as written and looks every resources/read up as new URL(uri).toString();
 * it matches a template against that same spelling. Registered as `Memory://graph`, a resource is
 * listed, yet a read of `Memory://graph` and of `memory://graph` both find nothing, with either
 * Client: so the registry refuses it at registration and names the spelling to register, which a
 * client reads in either spelling.
 */

const read = (uri: URL) => ({ contents: [{ uri: uri.href, text: "{}" }] });

function registry(): Registry {
  return createRegistry({ name: "graph", version: "1.0.0", startupCheck: false, logger: recordingLogger() });
}

/** Reads each URI, with the contents' URI, or the error's message. */
async function readEach(client: AnyClient, uris: readonly string[]): Promise<string[]> {
  const seen: string[] = [];
  for (const uri of uris) {
    try {
      const result = await client.readResource({ uri });
      seen.push(`read ${result.contents.map((contents) => contents.uri).join(", ")}`);
    } catch (error) {
      seen.push(error instanceof Error ? error.message : String(error));
    }
  }
  return seen;
}

describe("a static resource at a URI no read reaches", () => {
  test("the SDK's own McpServer lists it, and reads it in neither spelling, with either Client", async () => {
    const server = (): McpServer => {
      const plain = new McpServer({ name: "graph", version: "1.0.0" });
      plain.registerResource("graph", "Memory://graph", {}, read);
      return plain;
    };
    const seen = await answersInMemory(server, async (client) => [(await client.listResources()).resources.map(({ uri }) => uri), await readEach(client, ["Memory://graph", "memory://graph"])]);
    for (const [listed, reads] of seen) {
      expect(listed).toEqual(["Memory://graph"]);
      expect(reads).toEqual([expect.stringContaining("Resource not found: Memory://graph"), expect.stringContaining("Resource not found: memory://graph")]);
    }
  });

  test.each([
    ["Memory://graph", "memory://graph"],
    ["memory://graph/./x", "memory://graph/x"],
    ["file://localhost/srv/a.json", "file:///srv/a.json"],
    ["HTTPS://Example.org:443/graph", "https://example.org/graph"],
  ])("%j is refused at registration, naming %j to register instead", (written, normalised) => {
    const refused = registry();
    expect(() => refused.resource("graph", written, {}, read)).toThrow(TypeError);
    expect(() => refused.resource("graph", written, {}, read)).toThrow(
      new RegExp(
        `^registry\\.resource\\(\\) at .*unreadable-resources\\.test\\.ts:\\d+:\\d+: no client can ever read the resource at ${JSON.stringify(written).replace(/[.*+?^${}()|[\]\\/]/gu, "\\$&")}: ` +
          `the SDK keeps it under that URI as written, but looks every resources/read up as new URL\\(uri\\)\\.toString\\(\\), ${JSON.stringify(normalised).replace(/[.*+?^${}()|[\]\\/]/gu, "\\$&")}, ` +
          `so a read of either spelling finds nothing\\. Register it as ${JSON.stringify(normalised).replace(/[.*+?^${}()|[\]\\/]/gu, "\\$&")}, which a client reads in either spelling\\.$`,
        "u",
      ),
    );
  });

  test("nothing of a refused registration is kept: the spelling it names registers under the same name, and is the only one listed", async () => {
    const build = (): Registry => {
      const built = registry();
      expect(() => built.resource("graph", "Memory://graph", {}, read)).toThrow('Register it as "memory://graph"');
      built.resource("graph", "memory://graph", {}, read);
      return built;
    };
    const check = async (client: AnyClient): Promise<void> => {
      expect((await client.listResources()).resources.map(({ uri }) => uri)).toEqual(["memory://graph"]);
      expect(await readEach(client, ["memory://graph", "Memory://graph"])).toEqual(["read memory://graph", "read memory://graph"]);
    };
    await checkInMemory(build, check);
    await checkOverHttp(build, check);
  });

  test.each([
    ["memory://graph/x", ["memory://graph/x", "memory://graph/./x", "Memory://graph/x"]],
    ["file:///srv/a.json", ["file:///srv/a.json", "file://localhost/srv/a.json"]],
  ])("%j, the spelling to register, is read in every spelling with both Clients, in memory and over HTTP", async (uri, spellings) => {
    const build = (): Registry => {
      const built = registry();
      built.resource("graph", uri, {}, read);
      return built;
    };
    const check = async (client: AnyClient): Promise<void> => {
      expect(await readEach(client, spellings)).toEqual(spellings.map(() => `read ${uri}`));
    };
    await checkInMemory(build, check);
    await checkOverHttp(build, check);
  });

  test("a URI new URL() cannot parse is registered as today: the SDK's to take as it is", () => {
    expect(() => registry().resource("graph", "graph", {}, read)).not.toThrow();
  });
});

describe("a template no read matches", () => {
  const template = (text: string) => new ResourceTemplate(text, { list: undefined });

  test("a scheme with a capital letter is refused at registration, naming the template with it in lowercase", () => {
    expect(() => registry().resource("entity", template("Memory://entities/{name}"), {}, read)).toThrow(
      /^registry\.resource\(\) at .*unreadable-resources\.test\.ts:\d+:\d+: no client can ever read an instance of the template "Memory:\/\/entities\/\{name\}": the SDK matches every resources\/read against new URL\(uri\)\.toString\(\), whose scheme is always lowercase, and the template's scheme "Memory" is not\. Write the scheme in lowercase, "memory:\/\/entities\/\{name\}", which a client reads in either spelling\.$/u,
    );
  });

  test("the template in lowercase is read in either spelling of the scheme, with both Clients", async () => {
    const build = (): Registry => {
      const built = registry();
      built.resource("entity", template("memory://entities/{name}"), {}, read);
      return built;
    };
    const check = async (client: AnyClient): Promise<void> => {
      expect(await readEach(client, ["memory://entities/alice", "Memory://entities/alice"])).toEqual(["read memory://entities/alice", "read memory://entities/alice"]);
    };
    await checkInMemory(build, check);
    await checkOverHttp(build, check);
  });

  test("what depends on the instance is left to the SDK: a prefix with a dot segment, a scheme that is a variable", () => {
    // `memory://graph/./{name}` is read by no client either, but whether a prefix survives
    // new URL() depends on what follows it in general: only the scheme's case is certain.
    expect(() => registry().resource("dotted", template("memory://graph/./{name}"), {}, read)).not.toThrow();
    expect(() => registry().resource("any", template("{scheme}://graph/{name}"), {}, read)).not.toThrow();
  });
});
