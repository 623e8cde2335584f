/** A body over 1 MiB is refused (`too_large`) before anything else is looked at. */
export const MAX_WEBHOOK_BODY_BYTES = 1024 * 1024;

/** The 5 minutes Slack, Stripe and Standard Webhooks document, applied both to the past and to the future. */
export const FIVE_MINUTES = 5 * 60;
