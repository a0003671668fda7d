import type { JsonSchema } from "../src/preview/protocol";

/*
 * The argument form of a tool, generated from its input schema: one field per property (text,
 * number, checkbox, choice; JSON for objects and arrays), required ones marked.
 */

type FieldKind = "string" | "number" | "integer" | "boolean" | "enum" | "json";

interface Field {
  readonly name: string;
  readonly kind: FieldKind;
  readonly required: boolean;
  readonly input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  readonly schema: JsonSchema;
}

function kindOf(schema: JsonSchema): FieldKind {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return "enum";
  const type = Array.isArray(schema.type) ? schema.type.find((entry) => entry !== "null") : schema.type;
  return type === "string" || type === "number" || type === "integer" || type === "boolean" ? type : "json";
}

export interface ArgumentForm {
  readonly element: HTMLElement;
  /** The arguments the fields say, or the first field that cannot be read and why. */
  read(): { ok: true; arguments: Record<string, unknown> } | { ok: false; field: string; message: string };
}

export function argumentForm(document: Document, schema: JsonSchema): ArgumentForm {
  const container = document.createElement("div");
  container.className = "fields";
  const required = new Set(schema.required ?? []);
  const fields: Field[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const kind = kindOf(property);
    const id = `arg-${name}`;
    const label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = name;
    if (required.has(name)) {
      const mark = document.createElement("span");
      mark.className = "required";
      mark.textContent = " (required)";
      label.append(mark);
    }
    let input: Field["input"];
    if (kind === "enum") {
      const select = document.createElement("select");
      if (!required.has(name)) select.append(new Option("", ""));
      for (const value of property.enum ?? []) select.append(new Option(String(value), JSON.stringify(value)));
      input = select;
    } else if (kind === "json") {
      const textarea = document.createElement("textarea");
      textarea.placeholder = "JSON";
      textarea.rows = 3;
      input = textarea;
    } else {
      const field = document.createElement("input");
      field.type = kind === "boolean" ? "checkbox" : kind === "string" ? "text" : "number";
      if (kind === "integer") field.step = "1";
      if (kind === "number") field.step = "any";
      input = field;
    }
    input.id = id;
    input.name = name;
    if (property.default !== undefined) {
      if (input instanceof HTMLInputElement && input.type === "checkbox") input.checked = property.default === true;
      else input.value = kind === "json" || kind === "enum" ? JSON.stringify(property.default) : String(property.default);
    }
    const row = document.createElement("div");
    row.className = "field";
    row.append(label, input);
    if (property.description) {
      const hint = document.createElement("p");
      hint.className = "hint";
      hint.textContent = property.description;
      row.append(hint);
    }
    container.append(row);
    fields.push({ name, kind, required: required.has(name), input, schema: property });
  }
  if (fields.length === 0) {
    const none = document.createElement("p");
    none.className = "hint";
    none.textContent = "This tool takes no arguments.";
    container.append(none);
  }

  return {
    element: container,
    read() {
      const args: Record<string, unknown> = {};
      for (const field of fields) {
        if (field.kind === "boolean") {
          args[field.name] = (field.input as HTMLInputElement).checked;
          continue;
        }
        const raw = field.input.value;
        if (raw === "") {
          if (field.required) return { ok: false, field: field.name, message: `${field.name} is required` };
          continue;
        }
        if (field.kind === "string") args[field.name] = raw;
        else if (field.kind === "number" || field.kind === "integer") {
          const value = Number(raw);
          if (!Number.isFinite(value) || (field.kind === "integer" && !Number.isInteger(value))) {
            return { ok: false, field: field.name, message: `${field.name} must be ${field.kind === "integer" ? "an integer" : "a number"}` };
          }
          args[field.name] = value;
        } else {
          try {
            args[field.name] = JSON.parse(raw);
          } catch {
            return { ok: false, field: field.name, message: `${field.name} is not valid JSON` };
          }
        }
      }
      return { ok: true, arguments: args };
    },
  };
}
