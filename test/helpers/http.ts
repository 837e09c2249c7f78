import http from 'node:http';

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The JSON body, or `{text}` when it is not JSON. */
  body: Record<string, unknown>;
  text: string;
}

/**
 * One HTTP request to `base` (no redirects followed), from the given local address (an auth proxy's
 * listed one, or an ordinary 127.0.0.1), or through a Unix socket.
 */
export function request(
  base: string,
  method: string,
  p: string,
  headers: Record<string, string> = {},
  body?: string,
  { localAddress = '127.0.0.1', socketPath }: { localAddress?: string; socketPath?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const url = new URL(p, base);
    // A connection of its own (agent: false): a kept-alive socket the server closed while the test's event
    // loop was blocked (a spawnSync of `npm run token` under load outlasts its 5 s keep-alive) is reused
    // and answers "socket hang up".
    const req = http.request(url, { method, headers, agent: false, ...(socketPath ? { socketPath } : { localAddress }) }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        let parsed: Record<string, unknown>;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = { text };
        }
        resolve({ status: res.statusCode!, headers: res.headers, body: parsed, text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
