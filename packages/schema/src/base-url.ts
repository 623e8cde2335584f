import { parseTenantTemplate } from "./tenant-url.js";

const DNS_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const PATH_PREFIX_SEGMENT = /^[A-Za-z0-9._~!$&'()*+,;=:@-]+$/;
const PRIVATE_SUFFIXES = [".local", ".internal", ".localhost", ".localdomain", ".home.arpa", ".lan"];

/**
 * The problem with `auth.base`, or undefined when it is an absolute https URL
 * with a canonical origin, a public DNS host name and an optional path prefix.
 */
export function baseUrlProblem(base: string): string | undefined {
  if (base.includes("{") || base.includes("}")) {
    // A tenant base: the placeholder's place is checked here, the rest with a valid label in its stead.
    const tenant = parseTenantTemplate(base, 1);
    return tenant.ok ? baseUrlProblem(tenant.probe) : tenant.problem;
  }
  const plain = PLAIN_BASE.exec(base);
  // The usual spelling needs no URL parser: its origin is its own text (see PLAIN_BASE).
  if (plain !== null && !base.includes("xn--")) return hostAndPathProblem(plain[1] as string, plain[2] as string);
  return parsedBaseProblem(base);
}

/**
 * A base the URL parser would take as it is: https, lowercase LDH labels that neither start
 * nor end with `-`, the last starting with a letter (so never an IPv4 number), no port, user
 * info, query or fragment, and path segments of the characters a prefix may hold. Without an
 * `xn--` label (which the parser decodes), its origin is `https://` and the host as written.
 */
const PLAIN_BASE = /^https:\/\/((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z](?:[a-z0-9-]*[a-z0-9])?)((?:\/[A-Za-z0-9._~!$&'()*+,;=:@-]+)*)$/;

/** `baseUrlProblem` through the URL parser, for any spelling (exported for its tests). */
export function parsedBaseProblem(base: string): string | undefined {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return "must be an absolute URL";
  }
  if (url.protocol !== "https:") return "must use https";
  if (url.username !== "" || url.password !== "") return "must not hold user info";
  if (base.includes("?") || base.includes("#")) return "must not hold a query or fragment";
  const rest = base.slice(url.origin.length);
  if (!base.startsWith(url.origin) || (rest !== "" && !rest.startsWith("/"))) {
    return `origin must be canonical (lowercase host, no default port, no trailing dot): expected "${url.origin}"`;
  }
  if (url.port !== "") return "must not name a port";
  return hostAndPathProblem(url.hostname, rest);
}

/** The host and the path prefix (`""` or from its `/` on) of a base whose origin is canonical. */
function hostAndPathProblem(host: string, rest: string): string | undefined {
  const hostProblem = hostNameProblem(host);
  if (hostProblem) return hostProblem;
  if (rest === "") return undefined;
  if (rest.endsWith("/")) return "path prefix must not end with a slash";
  for (const segment of rest.slice(1).split("/")) {
    if (!PATH_PREFIX_SEGMENT.test(segment) || /^(\.|%2e){1,2}$/i.test(segment)) {
      return `path prefix segment "${segment}" is not allowed`;
    }
  }
  return undefined;
}

function hostNameProblem(host: string): string | undefined {
  if (host.startsWith("[") || /^[0-9.]+$/.test(host) || /^0x/i.test(host)) return "host must be a DNS name, not an IP address";
  if (host.endsWith(".")) return "host must not end with a dot";
  if (host === "localhost" || !host.includes(".")) return "host must be a public, fully qualified DNS name";
  if (PRIVATE_SUFFIXES.some((suffix) => host.endsWith(suffix))) return `host "${host}" is not a public name`;
  const labels = host.split(".");
  if (labels.some((label) => !DNS_LABEL.test(label))) return `host "${host}" is not a valid DNS name`;
  // The last label of an IPv4 spelling is numeric; a public TLD never is.
  if (/^[0-9]+$/.test(labels[labels.length - 1] as string)) return "host must be a DNS name, not an IP address";
  return undefined;
}
