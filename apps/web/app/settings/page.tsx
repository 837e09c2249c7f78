import { Fragment } from 'react';
import { POLICY_VARIABLES, targetPolicy } from '@scb/shared/policy';
import { targetKinds } from '@scb/shared/registry';
import '@scb/shared/targets';
import { webEnv, webPolicy } from '@/lib/env';

export const dynamic = 'force-dynamic';

export const metadata = { title: 'Settings' };

/** The operator's policy as this server read it at start: read-only, set through the environment. */
export default function SettingsPage() {
  const p = webPolicy();
  const env = webEnv();
  const ways = [
    'API tokens (npm run token)',
    ...(env.SCB_OIDC_ISSUER ? [`sign-in through ${env.SCB_OIDC_NAME} (${env.SCB_OIDC_ISSUER})`] : []),
    ...(env.SCB_AUTH_PROXY_HEADER
      ? [`the ${env.SCB_AUTH_PROXY_HEADER} header from ${[...(env.SCB_AUTH_PROXY_SOCKET ? [`the socket ${env.SCB_AUTH_PROXY_SOCKET}`] : []), ...env.SCB_AUTH_PROXY_ADDRESSES].join(', ') || 'nowhere'}`]
      : []),
    ...(env.mode === 'local' ? ['this machine without sign-in'] : []),
  ];
  // Each target kind's own rules, as its TargetKind.policy shows them.
  const kinds = targetKinds().flatMap((k) => (k.policy ? [{ name: k.name, policy: k.policy, value: targetPolicy(p, k.name) }] : []));
  return (
    <>
      <h1>Settings</h1>
      <p className="muted">
        What a job spec may make a runner reach, as this server's operator set it in the environment (docs/configuration.md). A spec that breaks a rule is refused naming it; every runner checks its
        own copy before connecting anywhere.
      </p>
      <h2>Access</h2>
      <dl className="env" data-testid="access">
        <dt>mode</dt>
        <dd>{env.mode === 'local' ? `local: bound to ${env.HOST}, writes from this machine need no sign-in` : 'team: every write needs an identity'}</dd>
        <dt>reads</dt>
        <dd>{env.SCB_AUTH_READ === 'on' ? 'need an identity (SCB_AUTH_READ=on)' : 'public'}</dd>
        <dt>writes from</dt>
        <dd>
          {ways.join('; ')}; always JSON, from this server's own origin ({env.publicOrigin})
        </dd>
        <dt>admins (SCB_ADMINS)</dt>
        <dd>{env.SCB_ADMINS.length ? env.SCB_ADMINS.join(', ') : 'none besides admin tokens'}</dd>
      </dl>
      {kinds.map((k) => (
        <section key={k.name}>
          <h2>{k.policy.title}</h2>
          <dl className="env" data-testid={`policy-${k.name}`}>
            {k.value === undefined ? (
              <>
                <dt>rules</dt>
                <dd>not read: the kind was registered after the policy</dd>
              </>
            ) : (
              k.policy.settings(k.value).map((row) => (
                <Fragment key={row.term}>
                  <dt>{row.term}</dt>
                  <dd>{row.value}</dd>
                </Fragment>
              ))
            )}
          </dl>
        </section>
      ))}
      <h2>Limits</h2>
      <dl className="env" data-testid="policy-limits">
        <dt>cells per job ({POLICY_VARIABLES.cellsPerJob})</dt>
        <dd>{p.limits.cellsPerJob}</dd>
        <dt>request body ({POLICY_VARIABLES.bodyBytes})</dt>
        <dd>{p.limits.bodyBytes.toLocaleString('en-US')} bytes</dd>
        <dt>estimated run time per job ({POLICY_VARIABLES.jobMinutes})</dt>
        <dd>{p.limits.jobMinutes} minutes</dd>
        <dt>jobs queued or running per identity ({POLICY_VARIABLES.queuedJobsPerIdentity})</dt>
        <dd>{p.limits.queuedJobsPerIdentity}</dd>
        <dt>release watches per identity ({POLICY_VARIABLES.watchesPerIdentity})</dt>
        <dd>{p.limits.watchesPerIdentity}</dd>
      </dl>
      <h2>Uploaded builds</h2>
      <dl className="env" data-testid="policy-artifacts">
        <dt>uploads ({POLICY_VARIABLES.artifacts})</dt>
        <dd>
          {p.artifacts.enabled ? 'on: POST /api/artifacts takes client builds (npm pack, Maven fragments, Go modules, Python wheels) as candidates' : 'off: jobs and gates run published versions only'}
        </dd>
        <dt>largest upload ({POLICY_VARIABLES.artifactMb})</dt>
        <dd>{Math.round(p.artifacts.maxBytes / 1024 / 1024)} MB</dd>
        <dt>where a build runs ({POLICY_VARIABLES.artifactsOnSpanner})</dt>
        <dd>{p.artifacts.onRemoteTargets ? 'the fake, the emulator and Cloud Spanner' : 'the fake and the emulator only'}</dd>
        <dt>sandbox</dt>
        <dd>
          each runner runs a build's driver, and the drivers it is compared with, under bubblewrap (its own network reaching only the cell's target, files read-only but its own folder); a runner
          without one refuses such cells unless its operator set SCB_ARTIFACTS_UNSANDBOXED=1, which the job page then shows
        </dd>
      </dl>
      <h2>Release watches</h2>
      <dl className="env" data-testid="policy-webhooks">
        <dt>webhooks ({POLICY_VARIABLES.webhooks}), by name; their URLs are not shown</dt>
        <dd>{Object.keys(p.webhooks).join(', ') || 'none'}</dd>
      </dl>
    </>
  );
}
