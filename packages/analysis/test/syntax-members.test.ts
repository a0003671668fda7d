import { execFileSync } from "node:child_process";
import * as path from "node:path";
import * as ts from "typescript";
import { describe, expect, it } from "vitest";
import type { SyntaxPort } from "../src/ports";
import { fastSyntaxPort, SYNTAX_PORT_MEMBERS } from "../src/syntax-members";

/*
 * The syntax port the analysis walks with (analyzeProgram and analyzeSourceFile take it from the
 * caller): the compiler's own members, each an own data property of an object V8 keeps with fast
 * properties, made once per compiler. Whether V8 keeps an object's properties fast is asked of V8
 * itself (`%HasFastProperties`, behind --allow-natives-syntax) in a child process: a fact of the
 * object's shape, not a timing.
 */

const DIST = path.resolve(__dirname, "../dist/syntax-members.js");

describe("fastSyntaxPort: the port's members as own properties, once per compiler", () => {
  it("holds every member of the port, the compiler's own, and reads anything else from the compiler", () => {
    const port = fastSyntaxPort(ts);
    for (const member of SYNTAX_PORT_MEMBERS) {
      expect(Object.getOwnPropertyDescriptor(port, member), member).toEqual({ value: ts[member], writable: false, enumerable: true, configurable: false });
    }
    expect(Object.getPrototypeOf(port)).toBe(ts);
    expect((port as typeof ts).version).toBe(ts.version);
  });

  it("is made once per compiler, and a port it made is given back as it is", () => {
    const port = fastSyntaxPort(ts);
    expect(fastSyntaxPort(ts)).toBe(port);
    expect(fastSyntaxPort(port)).toBe(port);
    const other: SyntaxPort = { ...port };
    expect(fastSyntaxPort(other)).not.toBe(port);
  });

  it("keeps fast properties, made of the compiler's module object (a dictionary to V8) or of a port built member by member", () => {
    const script = `
      const ts = require("typescript");
      const { fastSyntaxPort, SYNTAX_PORT_MEMBERS } = require(${JSON.stringify(DIST)});
      const byMember = {};
      for (const member of SYNTAX_PORT_MEMBERS) byMember[member] = ts[member];
      console.log(JSON.stringify([%HasFastProperties(fastSyntaxPort(ts)), %HasFastProperties(fastSyntaxPort(byMember))]));
    `;
    const output = execFileSync(process.execPath, ["--allow-natives-syntax", "-e", script], { cwd: path.resolve(__dirname, ".."), encoding: "utf8" });
    expect(JSON.parse(output)).toEqual([true, true]);
  });
});
