// Delivers a watch gate's verdict to one of the operator's webhooks: JSON that Slack (`text`) and GitHub's
// repository_dispatch (`event_type`, `client_payload`) both accept, the gate's Markdown as the text.
import { getDelivery, getGate, recordDeliveryAttempt, type Db } from '@scb/db';
import { clientName, gateMarkdown, parseWatchSpec, watchScenarioId } from '@scb/shared';
import { publicOriginOf, webhookUrl } from '@scb/shared/policy';
import { env, policy } from './env';

const link = (p: string) => new URL(p, publicOriginOf(env.SCB_PUBLIC_URL, env.PORT)).toString();

/** The body one delivery POSTs, or why there is none to send. */
export async function deliveryBody(db: Db, deliveryId: string): Promise<{ ok: true; webhook: string; body: unknown } | { ok: false; error: string }> {
  const d = await getDelivery(db, deliveryId);
  if (!d) return { ok: false, error: 'no such delivery' };
  const gate = await getGate(db, d.gateId);
  const watch = await db.watch.findUnique({ where: { id: d.watchId }, select: { spec: true } });
  const spec = watch && parseWatchSpec(watch.spec);
  if (!gate?.ok || !spec?.ok || !gate.verdict) return { ok: false, error: 'the gate or its watch can no longer be read' };
  const scenario = spec.value.scenarios[gate.watchScenario ?? 0];
  const gateUrl = link(`/gates/${gate.id}`);
  const markdown = gateMarkdown({ id: gate.id, url: gateUrl, jobUrl: link(`/jobs/${gate.jobId}`), spec: gate.spec, evaluation: gate.evaluation });
  const client = clientName(spec.value.language);
  return {
    ok: true,
    webhook: d.webhook,
    body: {
      text: markdown,
      event_type: 'spanner-client-bench-verdict',
      client_payload: {
        watch: d.watchId,
        watchUrl: link(`/watch/${d.watchId}`),
        client,
        version: gate.watchVersion,
        predecessor: gate.spec.baseline,
        scenario: scenario === undefined ? '' : watchScenarioId(scenario),
        verdict: gate.verdict,
        // A pass whose release keeps its predecessor's bad mode as often: a regression that persists, not a new one.
        persisting: gate.verdict === 'pass' && gate.evaluation?.persisting === true,
        reasons: gate.evaluation?.reasons ?? [],
        gateUrl,
      },
    },
  };
}

/** One attempt of a delivery: POST, record the outcome, queue the next attempt after the backoff while attempts remain. */
export async function deliverWebhook(db: Db, deliveryId: string, log: (line: string) => void): Promise<void> {
  const made = await deliveryBody(db, deliveryId);
  let error: string | null;
  let name = '';
  if (!made.ok) error = made.error;
  else {
    name = made.webhook;
    const url = webhookUrl(policy(), made.webhook);
    error = url === undefined ? `this runner's SCB_WEBHOOKS has no webhook named "${made.webhook}"` : await post(url, made.body);
  }
  const outcome = await recordDeliveryAttempt(db, deliveryId, error, { maxAttempts: env.SCB_WEBHOOK_ATTEMPTS, backoffMs: env.SCB_WEBHOOK_BACKOFF_MS });
  if (outcome.status === 'delivered') log(`webhook ${name}: delivery ${deliveryId} delivered (attempt ${outcome.attempts})`);
  else if (outcome.status === 'failed') log(`webhook ${name}: delivery ${deliveryId} failed for good after ${outcome.attempts} attempts: ${error}`);
  else log(`webhook ${name}: delivery ${deliveryId} attempt ${outcome.attempts} failed (${error}); again at ${outcome.nextAt?.toISOString()}`);
}

/** null when the webhook took it (2xx); otherwise why, never naming the URL (it may be a secret). */
async function post(url: string, body: unknown): Promise<string | null> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'spanner-client-bench' },
      body: JSON.stringify(body),
      // The operator allowed this URL, not wherever it redirects.
      redirect: 'error',
      signal: AbortSignal.timeout(15_000),
    });
    await res.arrayBuffer().catch(() => {});
    return res.ok ? null : `HTTP ${res.status}`;
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    return (e as Error).name === 'TimeoutError' ? 'no answer within 15 s' : `could not POST: ${cause?.code ?? cause?.message ?? (e as Error).message}`;
  }
}
