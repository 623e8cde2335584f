export { ready } from "./sodium.js";
export { GrantError, GRANT_ERROR_CODES, expiredGrantSummary, type GrantErrorCode, type ExpiredGrantSummary } from "./grant-error.js";
export { generateMemberKeys, generateBotKeys, type KeyPair } from "./keys.js";
export { issueGrant, GRANT_PREFIX, type IssueGrantInput } from "./issue-grant.js";
export { openGrant, type OpenGrantOptions } from "./open-grant.js";
export { decideByPolicy, checkGrantPolicy, POLICY_RULES, MAX_POLICY_OPS, type GrantPolicy, type PolicyRule, type PolicyDecision } from "./grant-policy.js";
export { issueApproval, APPROVAL_PREFIX, type IssueApprovalInput } from "./issue-approval.js";
export { openApproval, type OpenApprovalOptions } from "./open-approval.js";
export { issueSubscription, SUBSCRIPTION_PREFIX, type IssueSubscriptionInput } from "./issue-subscription.js";
export { openSubscription, type OpenSubscriptionOptions } from "./open-subscription.js";
export {
  subscriptionPayloadSchema,
  checkSubscriptionPayload,
  MAX_SUBSCRIPTION_EVENTS,
  MAX_SUBSCRIPTION_ARGS,
  type Subscription,
  type SubscriptionArgs,
} from "./subscription-payload.js";
export { renderApprovalLine, type RenderApprovalLineInput } from "./approval-line.js";
export { checkApprovalArgs, approvalCoversOp } from "./approval-check.js";
export {
  approvalPayloadSchema,
  argConstraintSchema,
  approvalArgsSchema,
  approvalBudgetSchema,
  MAX_APPROVAL_ARGS,
  MAX_CONSTRAINT_VALUES,
  MAX_CONSTRAINT_TEXT,
  MAX_BUDGET_RUNS,
  type Approval,
  type ArgConstraint,
  type ApprovalArgs,
  type ApprovalBudget,
} from "./approval-payload.js";
export { MAX_ACCOUNT_TEXT, MAX_CONNECTION_SETTINGS, type Grant, type GrantAccount, type GrantCredential } from "./grant-payload.js";
export { credentialExpired } from "./credential-expiry.js";
export { displayAccount } from "./display-account.js";
export { signConfirmation, type SignConfirmationInput } from "./sign-confirmation.js";
export { CONFIRMATION_PREFIX, type ConfirmationPayload } from "./confirmation-payload.js";
export {
  verifyConfirmation,
  verifyConfirmationAsync,
  checkConfirmation,
  consumeChecked,
  recallConfirmation,
  CheckedConfirmation,
  type ConfirmationRef,
  type CheckConfirmationOptions,
  type VerifyConfirmationOptions,
  type VerifyConfirmationAsyncOptions,
  type ReplayStore,
  type AsyncReplayStore,
} from "./verify-confirmation.js";
export {
  signRevocation,
  verifyRevocation,
  verifyApprovalRevocation,
  verifySubscriptionRevocation,
  revocationSignedBy,
  REVOCATION_PREFIX,
  type SignRevocationInput,
  type VerifyRevocationOptions,
  type VerifiedRevocation,
  type VerifiedApprovalRevocation,
  type VerifiedSubscriptionRevocation,
  type RevocationPayload,
} from "./revocation.js";
export { ReplayCache, DEFAULT_REPLAY_ENTRIES } from "./replay-cache.js";
export { argsDigest, keyedArgsDigest, resultDigest, blake2b256Base64Url } from "./digest.js";
export { signAuditCheckpoint, verifyAuditCheckpoint, AUDIT_CHECKPOINT_KIND, type AuditCheckpoint } from "./audit-checkpoint.js";
export {
  generateReceiptKeys,
  receiptKeysFor,
  signReceipt,
  verifyReceipt,
  type SignReceiptOptions,
  type VerifyReceiptOptions,
} from "./receipt.js";
export {
  receiptPayloadSchema,
  RECEIPT_PREFIX,
  MAX_RECEIPT_LENGTH,
  type ReceiptPayload,
  type ReceiptInput,
} from "./receipt-payload.js";
export {
  renderConfirm,
  renderConfirmParts,
  renderPreview,
  renderPreviewParts,
  confirmDetails,
  type ConfirmDetail,
  type ConfirmDetailFlag,
  type ConfirmLine,
  type ConfirmLinePart,
} from "./render-confirm.js";
export { skeleton, confusablePrototype } from "./unicode/confusables.js";
export { CONFUSABLES_SOURCE } from "./unicode/confusables-table.js";
export { findLookAlike, type LookAlike } from "./look-alike.js";
export { sealToPublicKey, openSealed } from "./seal.js";
export { generateSecretKey, secretboxSeal, secretboxOpen } from "./secretbox.js";
export { toBase64Url, fromBase64Url, decodeKey } from "./base64url.js";
export {
  MAX_GRANT_LENGTH,
  MAX_CONFIRMATION_LENGTH,
  MAX_REVOCATION_LENGTH,
  MAX_GRANT_TTL_SECONDS,
  MAX_APPROVAL_LENGTH,
  MAX_APPROVAL_TTL_SECONDS,
  MAX_SUBSCRIPTION_LENGTH,
  MAX_SUBSCRIPTION_TTL_SECONDS,
  MAX_CONFIRMATION_TTL_SECONDS,
  CLOCK_SKEW_SECONDS,
  MAX_CONFIRM_VALUE_CODE_POINTS,
  MAX_CONFIRM_LINE_CODE_POINTS,
  MIN_CONFIRM_VALUE_CODE_POINTS,
  MAX_COMBINING_MARKS,
} from "./limits.js";
export {
  generateReleaseKeys,
  signRelease,
  verifyRelease,
  parseRelease,
  verifyParsedRelease,
  releaseMessage,
  RELEASE_CONTEXT,
  MAX_RELEASE_BYTES,
  type VerifyReleaseOptions,
  type VerifiedRelease,
  type ParseReleaseOptions,
  type ParsedRelease,
} from "./release.js";
export {
  checkReleaseDocument,
  MAX_RELEASE_SIGNATURES,
  type ReleaseBody,
  type ReleaseDocument,
  type ReleaseSignature,
} from "./release-document.js";
export { ReleaseError, RELEASE_ERROR_CODES, type ReleaseErrorCode } from "./release-error.js";
export type { ReleaseManifestBytes } from "./release-pieces.js";
export {
  signRegistration,
  verifyRegistration,
  memberBoxKey,
  memberBoxKeys,
  registrationPayloadSchema,
  REGISTRATION_PREFIX,
  MAX_REGISTRATION_LENGTH,
  type Registration,
  type SignRegistrationInput,
} from "./event-registration.js";
