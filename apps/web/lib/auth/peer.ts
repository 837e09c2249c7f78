/**
 * The header the app's own server (server.mjs) sets to the TCP peer's address on every request,
 * replacing whatever a client sent: the only address the app trusts (a proxy's X-Forwarded-For is not).
 */
export const PEER_HEADER = 'x-scb-peer-address';
