/** What MCP clients accept as a tool name (the strictest common rule, that of the model APIs). */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * The tool name of an op: `<integration>__<namespace>__<verb>`, such as
 * `github__issues__create`. Integration ids hold no `_`, so the first `__`
 * always ends the integration; undefined when the name would be too long.
 */
export function toolName(integration: string, op: string): string | undefined {
  const name = `${integration}__${op.replace(".", "__")}`;
  return TOOL_NAME.test(name) ? name : undefined;
}
