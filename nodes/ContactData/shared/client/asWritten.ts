/**
 * n8n's NodeError replaces a message that merely contains a system error code (EPERM, ENOENT,
 * ECONNREFUSED…, matched anywhere, case-insensitively, e.g. EPERM in "deepermind.example") with
 * its own text for that code, and a message mapped to itself does not stop it. A message that
 * names something the user wrote (a URL) is set again once the error is built, so it reads as written.
 */
export function asWritten<E extends Error>(error: E, message: string): E {
	error.message = message;
	return error;
}
