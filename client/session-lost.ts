/**
 * What to do when the server says a sent token is no longer good (expired, revoked, disabled). Kept apart
 * from the tRPC client so the app shell can set it without loading that client.
 */
let onSessionLost: () => void = () => {};

export function setSessionLostHandler(handler: () => void) {
  onSessionLost = handler;
}

export function sessionLost() {
  onSessionLost();
}
