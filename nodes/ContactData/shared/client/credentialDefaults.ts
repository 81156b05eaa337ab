/** What the Contact Data API credential assumes for a field left unset: read by the credential and the transport. */

/** Seconds a call waits for an answer when the credential does not say. */
export const DEFAULT_TIMEOUT_SECONDS = 60;
