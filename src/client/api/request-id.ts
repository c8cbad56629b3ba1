/**
 * An id for one request the user means to make once (a withdrawal, a refund), kept across retries of
 * it, so that a doubled click or a retry after a lost answer is recorded once. The server takes
 * 16–64 letters, digits, "-" or "_".
 */
export const newRequestId = () => crypto.randomUUID().replace(/-/g, '');
