#!/usr/bin/env node
// Writes linear.graphql: Linear's GraphQL schema, rebuilt from the type declarations that
// Linear's own SDK (@linear/sdk, pinned in the root package.json) generates from that schema
// with graphql-codegen. Run from the repository root: `node manifests/specs/linear-schema.mjs`.
// Only what validation needs is kept: object, interface, union, input, enum and scalar types
// reachable from Query and Mutation, their fields and field arguments. Descriptions, default
// values and directives are not in the SDK's declarations and so not here.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");

/** The SDL text, from the SDK installed at the repository root. */
export function linearSchemaFromSdk() {
  const require = createRequire(join(root, "package.json"));
  const ts = require("typescript");
  const sdkDir = join(root, "node_modules", "@linear", "sdk");
  const version = JSON.parse(readFileSync(join(sdkDir, "package.json"), "utf8")).version;
  const declarations = readdirSync(join(sdkDir, "dist"))
    .filter((name) => name.endsWith(".d.mts"))
    .map((name) => readFileSync(join(sdkDir, "dist", name), "utf8"))
    .find((text) => text.includes("\ntype Query = {"));
  if (declarations === undefined) throw new Error("@linear/sdk: no declaration file holds `type Query`");
  const source = ts.createSourceFile("linear.d.mts", declarations, ts.ScriptTarget.Latest, false);

  const aliases = new Map();
  const enums = new Map();
  let scalars = [];
  for (const statement of source.statements) {
    if (ts.isTypeAliasDeclaration(statement)) aliases.set(statement.name.text, statement.type);
    if (ts.isEnumDeclaration(statement)) {
      enums.set(statement.name.text, statement.members.map((member) => (member.initializer && ts.isStringLiteral(member.initializer) ? member.initializer.text : member.name.text)));
    }
  }
  const scalarType = aliases.get("Scalars");
  if (scalarType && ts.isTypeLiteralNode(scalarType)) scalars = scalarType.members.map((member) => member.name.text);

  const typenameOf = (literal) => {
    for (const member of literal.members) {
      if (ts.isPropertySignature(member) && member.name.text === "__typename" && member.type && ts.isLiteralTypeNode(member.type)) return member.type.literal.text;
    }
    return undefined;
  };
  // name -> { kind, fields: TypeLiteral, interfaces: string[] }
  const shapes = new Map();
  const interfaceNames = new Set();
  for (const [name, node] of aliases) {
    if (ts.isTypeLiteralNode(node)) {
      const typename = typenameOf(node);
      if (typename === name) shapes.set(name, { kind: "type", literal: node, interfaces: [] });
      else if (typename === undefined) shapes.set(name, { kind: "plain", literal: node, interfaces: [] });
    } else if (ts.isIntersectionTypeNode(node)) {
      const literal = node.types.find((part) => ts.isTypeLiteralNode(part));
      const refs = node.types.filter((part) => ts.isTypeReferenceNode(part) && ts.isIdentifier(part.typeName)).map((part) => part.typeName.text);
      if (literal === undefined || refs.length !== node.types.length - 1) continue;
      const typename = typenameOf(literal);
      if (typename !== name && typename !== undefined) continue;
      shapes.set(name, { kind: typename === name ? "type" : "interface", literal, interfaces: refs });
      for (const ref of refs) interfaceNames.add(ref);
    } else if (ts.isUnionTypeNode(node) && node.types.every((part) => ts.isTypeReferenceNode(part) && ts.isIdentifier(part.typeName))) {
      shapes.set(name, { kind: "union", members: node.types.map((part) => part.typeName.text) });
    }
  }
  for (const name of interfaceNames) {
    const shape = shapes.get(name);
    if (shape && shape.kind === "plain") shape.kind = "interface";
  }

  const emitted = new Map();
  const queue = ["Query", "Mutation"];
  const want = (name, position) => {
    if (["String", "Int", "Float", "Boolean", "ID"].includes(name) || emitted.has(name) || queue.includes(name)) return;
    if (!shapes.has(name) && !enums.has(name) && !scalars.includes(name)) throw new Error(`@linear/sdk: unknown type ${name} (${position})`);
    queue.push(name);
  };
  const typeText = (node, optional, position) => {
    let nullable = optional;
    let current = node;
    for (;;) {
      if (ts.isTypeReferenceNode(current) && ts.isIdentifier(current.typeName) && ["Maybe", "InputMaybe"].includes(current.typeName.text)) {
        nullable = true;
        current = current.typeArguments[0];
        continue;
      }
      break;
    }
    let text;
    if (ts.isTypeReferenceNode(current) && ts.isIdentifier(current.typeName) && current.typeName.text === "Array") {
      text = `[${typeText(current.typeArguments[0], false, position)}]`;
    } else if (ts.isIndexedAccessTypeNode(current) && ts.isLiteralTypeNode(current.indexType)) {
      text = current.indexType.literal.text;
      want(text, position);
    } else if (ts.isTypeReferenceNode(current) && ts.isIdentifier(current.typeName)) {
      text = current.typeName.text;
      want(text, position);
    } else {
      throw new Error(`@linear/sdk: cannot read the type of ${position}`);
    }
    return nullable ? text : `${text}!`;
  };
  const fieldsOf = (typeName, literal, withArgs) => {
    const lines = [];
    for (const member of literal.members) {
      if (!ts.isPropertySignature(member) || member.name.text === "__typename" || member.type === undefined) continue;
      const field = member.name.text;
      const position = `${typeName}.${field}`;
      let args = "";
      const argsType = withArgs ? aliases.get(`${typeName}${field[0].toUpperCase()}${field.slice(1)}Args`) : undefined;
      if (argsType && ts.isTypeLiteralNode(argsType)) {
        const list = argsType.members
          .filter((arg) => ts.isPropertySignature(arg) && arg.type)
          .map((arg) => `${arg.name.text}: ${typeText(arg.type, arg.questionToken !== undefined, `${position}(${arg.name.text})`)}`);
        if (list.length > 0) args = `(${list.join(", ")})`;
      }
      lines.push(`  ${field}${args}: ${typeText(member.type, member.questionToken !== undefined && !withArgs ? true : member.questionToken !== undefined, position)}`);
    }
    return lines;
  };

  const inputs = new Set();
  while (queue.length > 0) {
    const name = queue.shift();
    if (emitted.has(name)) continue;
    if (scalars.includes(name)) {
      if (!["String", "Int", "Float", "Boolean", "ID"].includes(name)) emitted.set(name, `scalar ${name}`);
      else emitted.set(name, "");
      continue;
    }
    if (enums.has(name)) {
      emitted.set(name, `enum ${name} {\n${enums.get(name).map((value) => `  ${value}`).join("\n")}\n}`);
      continue;
    }
    const shape = shapes.get(name);
    if (shape.kind === "union") {
      for (const member of shape.members) want(member, `union ${name}`);
      emitted.set(name, `union ${name} = ${shape.members.join(" | ")}`);
      continue;
    }
    const isInput = shape.kind === "plain" || inputs.has(name);
    if (isInput) {
      emitted.set(name, "");
      const body = [];
      for (const member of shape.literal.members) {
        if (!ts.isPropertySignature(member) || member.type === undefined) continue;
        const before = queue.length;
        body.push(`  ${member.name.text}: ${typeText(member.type, member.questionToken !== undefined, `${name}.${member.name.text}`)}`);
        for (const added of queue.slice(before)) if (shapes.get(added)?.kind === "plain") inputs.add(added);
      }
      emitted.set(name, `input ${name} {\n${body.join("\n")}\n}`);
      continue;
    }
    for (const iface of shape.interfaces) want(iface, `interfaces of ${name}`);
    const keyword = shape.kind === "interface" ? "interface" : "type";
    const implementsText = shape.interfaces.length > 0 ? ` implements ${shape.interfaces.join(" & ")}` : "";
    emitted.set(name, "");
    const own = fieldsOf(name, shape.literal, true);
    const inherited = shape.interfaces.flatMap((iface) => fieldsOf(iface, shapes.get(iface).literal, false));
    const seen = new Set();
    const fields = [...own, ...inherited].filter((line) => {
      const field = line.trim().split(/[(:]/)[0];
      if (seen.has(field)) return false;
      seen.add(field);
      return true;
    });
    emitted.set(name, `${keyword} ${name}${implementsText} {\n${fields.join("\n")}\n}`);
  }
  const blocks = [...emitted.entries()].filter(([, text]) => text !== "").sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, text]) => text);
  return `# Linear's GraphQL schema as its SDK (@linear/sdk ${version}) declares it.\n# Generated by manifests/specs/linear-schema.mjs from node_modules/@linear/sdk; do not edit.\n\n${blocks.join("\n\n")}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(join(here, "linear.graphql"), linearSchemaFromSdk());
  process.stdout.write("wrote manifests/specs/linear.graphql\n");
}
