import { hasControlCharacter, isJsonHeaderTemplate, splitTemplate, type ArgType, type JsonValue, type OpHeaders } from "@eleven-integrations/schema";
import { compileBody, type BodyArgs } from "./compile-body.js";

/** One filled header, or the arg whose value cannot travel in it (never the value itself). */
export type RenderedHeader =
  | { readonly ok: true; readonly name: string; readonly value: string }
  | { readonly ok: true; readonly name: string; readonly value: undefined }
  | { readonly ok: false; readonly name: string; readonly arg: string; readonly problem: "control_character" | "not_ascii" | "not_text" };

/** An op's header, compiled once at load. */
export interface CompiledHeader {
  readonly name: string;
  /** Fills the template; `value: undefined` when an optional arg it needs was not given (the header is then not sent). */
  render(args: BodyArgs): RenderedHeader;
}

// Visible ASCII, space and tab: what a text header's filled value may hold.
const HEADER_TEXT = /^[\t\x20-\x7e]*$/;

export function compileHeaders(headers: OpHeaders | undefined, types: ReadonlyMap<string, ArgType>): readonly CompiledHeader[] {
  if (headers === undefined) return Object.freeze([]);
  return Object.freeze(
    Object.entries(headers).map(([name, template]) =>
      Object.freeze(isJsonHeaderTemplate(template) ? jsonHeader(name, template, types) : textHeader(name, template)),
    ),
  );
}

/**
 * A JSON template (Dropbox-API-Arg): rendered like a body, so a value stays one JSON string,
 * then sent with every non-ASCII character escaped (`\uXXXX`), as such headers require. JSON
 * escapes every control character, so none can reach the header line.
 */
function jsonHeader(name: string, template: string, types: ReadonlyMap<string, ArgType>): CompiledHeader {
  const render = compileBody(JSON.parse(template) as JsonValue, types);
  return {
    name,
    render: (args) => ({ ok: true, name, value: asciiJson(JSON.stringify(render(args))) }),
  };
}

/** A text template (Idempotency-Key: `{key}`): each value put in as it is, refused when it holds a control or non-ASCII character. */
function textHeader(name: string, template: string): CompiledHeader {
  const parts = splitTemplate(template);
  return {
    name,
    render: (args) => {
      let value = "";
      for (const part of parts) {
        if (part.kind === "literal") {
          value += part.text;
          continue;
        }
        const given = Object.hasOwn(args, part.name) ? args[part.name] : undefined;
        if (given === undefined) return { ok: true, name, value: undefined };
        // A list or a file has no text form in a header.
        if (typeof given !== "string") return { ok: false, name, arg: part.name, problem: "not_text" };
        if (hasControlCharacter(given)) return { ok: false, name, arg: part.name, problem: "control_character" };
        if (!HEADER_TEXT.test(given)) return { ok: false, name, arg: part.name, problem: "not_ascii" };
        value += given;
      }
      return { ok: true, name, value };
    },
  };
}

function asciiJson(json: string): string {
  return json.replace(/[\u007f-\uffff]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
