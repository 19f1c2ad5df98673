// Loopback addresses, apart from the GraphQL client so that the commands that only check an address
// (the configuration, the servers' host checks) do not load graphql-request and graphql when they start.

/** Whether a token sent to `endpoint` would travel in clear over a network: plain http to a host that is not loopback. */
export function isInsecureTokenEndpoint(endpoint: string): boolean {
  const url = URL.canParse(endpoint) ? new URL(endpoint) : null;
  return url !== null && url.protocol === 'http:' && !isLoopbackHost(url.hostname);
}

/** localhost, 127.0.0.0/8 or ::1, as a URL's hostname spells them (the URL parser normalises `127.1` and the like). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
