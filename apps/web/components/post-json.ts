// What the browser's forms share: POST a JSON body, get the created id or the issues the API named.

export interface Issue {
  path: string;
  message: string;
}

/** POSTs `body`; the answer's JSON when it succeeded, else every issue it named (or its error as one). */
export async function postJson(url: string, body: unknown): Promise<{ ok: true; body: { id: string } } | { ok: false; issues: Issue[] }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = res.headers.get('content-type')?.includes('json') ? await res.json() : { error: `the server answered HTTP ${res.status}` };
  if (res.ok) return { ok: true, body: answer };
  return { ok: false, issues: answer.issues ?? [{ path: '(root)', message: answer.error ?? `HTTP ${res.status}` }] };
}
