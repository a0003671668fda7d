/*
 * The wire form of a result: the plain-JSON value that will be sent, built once. Everything the
 * net checks and everything the server sends is this copy, so nothing the tool returned — a
 * `toJSON`, a getter, a proxy trap — runs after the check or changes what the client receives.
 */

/** What the copy refuses beyond; documented in docs/registry.md ("The run-time net"). */
export const WIRE_LIMITS = {
  /** Objects and arrays nested inside one another, below the result itself. */
  depth: 64,
  /** Values in all (each appearance of a shared value counts). */
  values: 1_000_000,
  /** Characters of all strings and keys together. */
  characters: 50_000_000,
} as const;

export type WirePath = ReadonlyArray<string | number>;

/** A value the copy refused: where (the path of the first offender) and why. */
export class WireRefusal {
  constructor(
    readonly path: WirePath,
    readonly problem: string,
  ) {}
}

const objectPrototype = Object.prototype;

/** How a message names a value the copy refuses. Never throws. */
function kindOf(value: object): string {
  try {
    const tag = Object.prototype.toString.call(value).slice(8, -1);
    if (tag !== "Object") return `a ${tag}`;
    const prototype = Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null;
    const name = prototype?.constructor?.name;
    return typeof name === "string" && name !== "" ? `an instance of ${name}` : "an object with a prototype of its own";
  } catch {
    return "an object that cannot be inspected";
  }
}

/** The text of a thrown value, for a refusal message. Never throws. */
export function thrownText(error: unknown): string {
  try {
    if (error instanceof Error) return String(error.message);
  } catch {
    // A proxy or a getter that throws again: fall through.
  }
  try {
    return String(error);
  } catch {
    return "a value that cannot be turned into text";
  }
}

/** A refusal on its way up: each enclosing list or object adds its key as the throw passes. */
function within(error: unknown, key: string | number): WireRefusal {
  const refusal = error instanceof WireRefusal ? error : new WireRefusal([], `reading it threw: ${thrownText(error)}`);
  (refusal.path as Array<string | number>).unshift(key);
  return refusal;
}

const refuse = (problem: string): never => {
  throw new WireRefusal([], problem);
};

/*
 * One copy per result. Hot path first: strings and numbers; a container costs a toJSON lookup,
 * a prototype check and a scan of its (at most 64) ancestors. The path of an offender is built only
 * when a refusal unwinds, so a result that passes pays nothing for it.
 */
class Copier {
  private readonly ancestors: object[] = [];
  private values = 0;
  private characters = 0;

  /** Counts the items of a list or an object about to be copied: every value is one of them. */
  items(count: number): void {
    if ((this.values += count) > WIRE_LIMITS.values) refuse(`the result holds more than ${WIRE_LIMITS.values.toLocaleString("en-US")} values`);
  }

  private text(length: number): void {
    if ((this.characters += length) > WIRE_LIMITS.characters) {
      refuse(`the result holds more than ${WIRE_LIMITS.characters.toLocaleString("en-US")} characters of text`);
    }
  }

  /** `value` as JSON would write it at `key`, or `undefined` where JSON would leave it out. */
  copy(input: unknown, key: string | number): unknown {
    let value = input;
    if (typeof value === "string") {
      this.text(value.length);
      return value;
    }
    if ((typeof value === "object" && value !== null) || typeof value === "function") {
      // JSON's own rule: a `toJSON` method is called once, with the key, and its answer is what is sent.
      const toJSON = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === "function") value = toJSON.call(value, String(key)) as unknown;
    }
    switch (typeof value) {
      case "object":
        break;
      case "string":
        this.text(value.length);
        return value;
      case "number":
        if (!Number.isFinite(value)) refuse(`${String(value)} is not a JSON number`);
        return value;
      case "boolean":
        return value;
      case "undefined":
        return undefined;
      case "bigint":
        return refuse(`a BigInt (${String(value)}n): JSON has no BigInt; convert it with Number() or String()`);
      case "symbol":
        return refuse(`a symbol (${String(value)}) where data belongs`);
      default:
        return refuse("a function where data belongs (functions, such as Chart.js callbacks, cannot travel as JSON)");
    }
    if (value === null) return null;
    const ancestors = this.ancestors;
    if (ancestors.includes(value)) refuse("a cycle: the value contains itself");
    if (ancestors.length > WIRE_LIMITS.depth) refuse(`nested deeper than ${WIRE_LIMITS.depth} levels`);
    ancestors.push(value);
    const copied = Array.isArray(value) ? this.copyArray(value) : this.copyObject(value);
    ancestors.pop();
    return copied;
  }

  private copyArray(array: readonly unknown[]): unknown[] {
    const length: unknown = array.length;
    if (typeof length !== "number" || !Number.isSafeInteger(length) || length < 0) refuse("a list whose length is not a count");
    this.items(length as number);
    const copied: unknown[] = [];
    for (let index = 0; index < (length as number); index++) {
      try {
        const item = this.copy(array[index], index);
        if (item === undefined) refuse("undefined in a list (JSON would write null): leave the item out or write null");
        copied.push(item);
      } catch (error) {
        throw within(error, index);
      }
    }
    return copied;
  }

  private copyObject(object: object): Record<string, unknown> {
    const prototype = Object.getPrototypeOf(object) as unknown;
    if (prototype !== objectPrototype && prototype !== null) {
      refuse(`${kindOf(object)} where plain data belongs: return plain objects and arrays, or give it a toJSON()`);
    }
    const copied: Record<string, unknown> = {};
    const keys = Object.keys(object);
    this.items(keys.length);
    for (const key of keys) {
      try {
        if (key === "__proto__") refuse('a key named "__proto__", which JSON readers may take for the prototype');
        this.text(key.length);
        const item = this.copy((object as Record<string, unknown>)[key], key);
        if (item !== undefined) copied[key] = item;
      } catch (error) {
        throw within(error, key);
      }
    }
    return copied;
  }
}

/**
 * The plain-JSON copy of `value`, or the refusal of its first offender: a BigInt, a symbol, a
 * function where data belongs, a non-finite number, `undefined` in a list, a cycle, an object
 * that is not plain data and has no `toJSON`, a `__proto__` key, nesting or size beyond
 * `WIRE_LIMITS`, or a getter, `toJSON` or proxy trap that throws. Keys are an object's own
 * enumerable string keys (symbol keys are not data, as in JSON); a key whose value is `undefined`
 * is left out, as JSON leaves it out.
 */
export function toWire(value: unknown): { ok: true; value: unknown } | { ok: false; refusal: WireRefusal } {
  try {
    const copier = new Copier();
    copier.items(1);
    return { ok: true, value: copier.copy(value, "") };
  } catch (error) {
    // A refusal, or a getter, a toJSON or a proxy trap that threw at the top.
    return { ok: false, refusal: error instanceof WireRefusal ? error : new WireRefusal([], `reading it threw: ${thrownText(error)}`) };
  }
}
