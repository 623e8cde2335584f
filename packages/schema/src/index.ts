export {
  manifestSchema,
  authSchema,
  operationSchema,
  argSchema,
  pickSchema,
  tenantSchema,
  DEFAULT_MAX_LENGTH,
  MAX_MAX_LENGTH,
  type Manifest,
  type Auth,
  type Operation,
  type Arg,
  type Pick,
  type Tenant,
  type Access,
  type Method,
  type JsonValue,
  type OAuthSettings,
} from "./manifest-schema.js";
export { pagingSchema, type Paging } from "./paging.js";
export {
  eventSchema,
  webhookSourceSchema,
  pollSourceSchema,
  eventArgSchema,
  requestPlaceSchema,
  typeConditionSchema,
  WEBHOOK_DIALECTS,
  MIN_POLL_EVERY_SECONDS,
  MAX_POLL_EVERY_SECONDS,
  type ManifestEvent,
  type WebhookSource,
  type PollSource,
  type EventArg,
  type RequestPlace,
  type TypeCondition,
  type WebhookDialect,
} from "./event-schema.js";
export {
  providerErrorsSchema,
  failedWhenSchema,
  MAPPABLE_ERROR_CODES,
  type ProviderErrors,
  type FailedWhen,
  type MappableErrorCode,
} from "./provider-errors.js";
export { oauthSchema, revocationSchema, BROKER_AUTHORIZE_PARAMETERS, OAUTH_ERROR_CODES, REVOCATION_DIALECTS, type RevocationDialect } from "./oauth-schema.js";
export { previewSchema, type Preview } from "./preview.js";
export { splitLine, LINE_PLACEHOLDER, type LinePart, type LineSelect } from "./preview-line.js";
export {
  ARG_TYPES,
  MAX_LIST_ITEMS,
  argTypeProblem,
  typedValue,
  isListArgType,
  itemArgType,
  type ArgType,
  type ScalarArgType,
  type ListArgType,
} from "./arg-type.js";
export {
  argValueSchema,
  runArgsSchema,
  fileArgValueSchema,
  inlineFileArgSchema,
  storedFileArgSchema,
  type ArgValue,
  type RunArgs,
  type FileArgValue,
  type InlineFileArg,
} from "./run-args.js";
export { multipartSchema, uploadRules, type Multipart } from "./upload-rules.js";
export { MAX_FILE_BYTES, MAX_FILE_BASE64_LENGTH, base64DecodedLength } from "./file-value.js";
export { MESSAGE_ARGS, MESSAGE_PLACEHOLDER, isMessageArg, type MessageArgName } from "./message-args.js";
export { WHEN_KEY, EACH_KEY, isConditionalLeaf, conditionalLeaf, isEachLeaf, eachLeaf, type ConditionalLeaf, type EachLeaf } from "./conditional-leaf.js";
export { FORBIDDEN_KEYS, forbiddenKeys, type ForbiddenKey } from "./forbidden-keys.js";
export {
  parseTenantTemplate,
  tenantValueProblem,
  MAX_TENANT_LENGTH,
  TENANT_PROBE,
  type TenantPlace,
  type TenantPlaceholder,
  type TenantTemplateResult,
} from "./tenant-url.js";
export { connectionProblems, type ConnectionProblem, type TenantAuth } from "./connection-check.js";
export { parseManifest, formatJsonPath, type ManifestIssue, type ParseManifestResult } from "./parse-manifest.js";
export { manifestAdvice, MANIFEST_ADVICE_RULES, type ManifestAdvice, type ManifestAdviceRule } from "./manifest-advice.js";
export { parsePathTemplate, type PathTemplate, type PathSegment, type QueryPair } from "./path-template.js";
export { splitTemplate, placeholderNames, PLACEHOLDER, type TemplatePart } from "./placeholders.js";
export { canonicalJson } from "./canonical-json.js";
export { deepFreeze } from "./deep-freeze.js";
export { EXECUTOR_OWNED_HEADERS, HOP_BY_HOP_HEADERS, hasControlCharacter } from "./headers.js";
export { opHeadersSchema, isJsonHeaderTemplate, type OpHeaders } from "./op-headers.js";
export { credentialPlaceSchema, authHostsSchema, HOST_NAME, type CredentialPlace, type AuthHosts } from "./auth-transport.js";
export { manifestJsonSchema, MANIFEST_SCHEMA_ID } from "./json-schema.js";
export { plainTextProblem } from "./plain-text.js";
export { rulePredicateOf, refusedKeysOf, type RulePredicate, type IssueSink } from "./rule-checks.js";
export {
  neutraliseText,
  HIDDEN_CHARACTER,
  REPLACEMENT_CHARACTER,
  MAX_COMBINING_MARKS,
  type NeutralisedText,
} from "./neutralise-text.js";
export { isEmojiVariationBase } from "./unicode/emoji-variation.js";
export { EMOJI_VARIATION_SOURCE } from "./unicode/emoji-variation-bases.js";
export {
  CONFIRM_DETAIL_FLAGS,
  confirmDetailFlagSchema,
  confirmDetailSchema,
  confirmLinePartSchema,
  confirmLineSchema,
  type ConfirmDetailFlag,
  type ConfirmDetail,
  type ConfirmLinePart,
  type ConfirmLine,
} from "./confirm-detail.js";
// One home for the rules every package shares (issue 19): the op-id and key patterns, the dot-path walker, the error-marker base.
export { OP_ID_PATTERN, KEY_PATTERN, SCOPE_TOKEN } from "./patterns.js";
export { dotPathProblem, valueAtDotPath } from "./dot-path.js";
export { markedError, errorMarker, hasErrorMarker, type MarkedError, type MarkedErrorClass } from "./marked-error.js";
