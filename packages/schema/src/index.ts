export {
  manifestSchema,
  authSchema,
  operationSchema,
  argSchema,
  pickSchema,
  DEFAULT_MAX_LENGTH,
  MAX_MAX_LENGTH,
  type Manifest,
  type Auth,
  type Operation,
  type Arg,
  type Pick,
  type Access,
  type Method,
  type JsonValue,
  type OAuthSettings,
} from "./manifest-schema.js";
export { pagingSchema, type Paging } from "./paging.js";
export { providerErrorsSchema, failedWhenSchema, MAPPABLE_ERROR_CODES, type ProviderErrors, type FailedWhen, type MappableErrorCode } from "./provider-errors.js";
export { oauthSchema, BROKER_AUTHORIZE_PARAMETERS, OAUTH_ERROR_CODES } from "./oauth-schema.js";
export { parseManifest, formatJsonPath, type ManifestIssue, type ParseManifestResult } from "./parse-manifest.js";
export { parsePathTemplate, type PathTemplate, type PathSegment, type QueryPair } from "./path-template.js";
export { splitTemplate, placeholderNames, type TemplatePart } from "./placeholders.js";
export { canonicalJson } from "./canonical-json.js";
export { EXECUTOR_OWNED_HEADERS } from "./headers.js";
export { manifestJsonSchema, MANIFEST_SCHEMA_ID } from "./json-schema.js";
export { plainTextProblem } from "./plain-text.js";
export {
  neutraliseText,
  HIDDEN_CHARACTER,
  REPLACEMENT_CHARACTER,
  MAX_COMBINING_MARKS,
  type NeutralisedText,
} from "./neutralise-text.js";
export { isEmojiVariationBase } from "./unicode/emoji-variation.js";
export { EMOJI_VARIATION_SOURCE } from "./unicode/emoji-variation-bases.js";
