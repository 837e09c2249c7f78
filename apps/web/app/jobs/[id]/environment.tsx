import { Fragment } from 'react';
import { languageInfos } from '@scb/shared/registry';
import { targetVersionsOf, toolchainsOf, type JobEnvironment } from '@scb/shared/stored';
import { targetTitle } from '@scb/shared/targets';

/** The machine, toolchains, target software and commit the job ran with, as its runner recorded them. */
export function Environment({ env }: { env: JobEnvironment | null }) {
  return (
    <>
      <h2>Where it ran</h2>
      {env ? <EnvironmentList env={env} /> : <p className="muted">Recorded when a runner picks the job up.</p>}
    </>
  );
}

function EnvironmentList({ env }: { env: JobEnvironment }) {
  const toolchains = toolchainsOf(env);
  return (
    <dl className="env">
      <dt>host</dt>
      <dd>{env.host}</dd>
      <dt>cores</dt>
      <dd>
        {env.cores} ({env.cpuModel})
      </dd>
      <dt>memory</dt>
      <dd>{env.memoryGiB} GiB</dd>
      <dt>platform</dt>
      <dd>{env.platform}</dd>
      {languageInfos().map((l) => (
        <Fragment key={l.name}>
          <dt>{l.title}</dt>
          <dd>
            {toolchains[l.name] ?? 'not found'}
            {env.driverOptions?.[l.name] && <span data-testid={`driver-options-${l.name}`}>, drivers run with {env.driverOptions[l.name]} (not the runtime's defaults)</span>}
          </dd>
        </Fragment>
      ))}
      {Object.entries(targetVersionsOf(env)).map(([kind, version]) => (
        <Fragment key={kind}>
          <dt>{targetTitle(kind)}</dt>
          <dd>{version ?? 'not found'}</dd>
        </Fragment>
      ))}
      <dt>commit</dt>
      <dd>{env.commit ?? 'unknown'}</dd>
      {env.builds && (
        <>
          <dt>uploaded builds</dt>
          <dd data-testid="builds-isolation">{env.builds}</dd>
        </>
      )}
    </dl>
  );
}
