import { z } from "zod";
import { baseUrlProblem } from "./base-url.js";
import { headerNameProblem } from "./headers.js";
import { problemCheck } from "./rule-checks.js";

/** A query key a credential travels under: URL-safe, as the provider writes it. */
const CREDENTIAL_QUERY_KEY = /^[A-Za-z0-9_.~-]{1,64}$/;

/**
 * Where a personal token travels when not as `Authorization` (Figma's `X-Figma-Token`,
 * CircleCI's `Circle-Token`): the bare token in that header, or in that query parameter.
 * No `Authorization` is then sent with a personal token; a token from the OAuth flow still
 * travels as `Authorization` with the OAuth scheme.
 */
export const credentialPlaceSchema = z.discriminatedUnion("in", [
  z.strictObject({ in: z.literal("header"), name: z.string().max(64).check(problemCheck(headerNameProblem)) }),
  z.strictObject({ in: z.literal("query"), name: z.string().regex(CREDENTIAL_QUERY_KEY, "must be a URL query key") }),
]);

/** A host name of `auth.hosts`, as an op's `host` names it. */
export const HOST_NAME = /^[a-z][a-z0-9_]{0,31}$/;

/**
 * Further hosts of the manifest by name (`content: "https://content.dropboxapi.com"`), each an
 * https URL checked like `base` (public DNS name, a path prefix allowed, no tenant placeholder).
 */
export const authHostsSchema = z.record(
  z.string().regex(HOST_NAME, "host names are [a-z][a-z0-9_]* (at most 32 characters)"),
  z
    .string()
    .max(512)
    .regex(/^https:\/\//, "must be an https URL")
    .check(problemCheck((url: string) => (url.includes("{") || url.includes("}") ? "a further host names no tenant placeholder" : baseUrlProblem(url)))),
);

export type CredentialPlace = z.infer<typeof credentialPlaceSchema>;
export type AuthHosts = z.infer<typeof authHostsSchema>;
