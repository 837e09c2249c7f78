import type { Metadata } from 'next';
import Link from '@/components/PageLink';
import { notFound } from 'next/navigation';
import { gateScenarioText } from '@scb/shared/gate';
import { calibrationText } from '@scb/shared/calibration';
import { gateReproduction } from '@scb/shared/reproduction-gate';
import { METRIC_NAMES, confidenceText } from '@scb/shared/gate-stats';
import { formatChange, formatInterval, formatMetricValue, formatModeP, formatWorst, gateMarkdown, gateSetupLine, modeVerdictText } from '@scb/shared/gate-markdown';
import { AutoRefresh } from '@/components/AutoRefresh';
import { CellCharts } from '@/components/CellCharts';
import { GateActions } from '@/components/GateActions';
import { GateCharts } from '@/components/GateCharts';
import { VerdictBadge } from '@/components/VerdictBadge';
import { getGate, isInvalidGate, markdownGate } from '@/lib/gates';
import { getJob, isInvalidJob, publicOrigin } from '@/lib/jobs';
import { pageMetadata } from '@/lib/metadata';
import { formatUtc } from '@scb/shared/table';
import { streamLimit } from '@scb/shared/targets';

export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const gate = await getGate((await params).id, publicOrigin());
  if (!gate) return { title: 'Gate not found' };
  if (isInvalidGate(gate)) return pageMetadata({ title: `Gate ${gate.id}: invalid`, description: gate.invalid, url: gate.url });
  const s = gate.spec;
  return pageMetadata({ title: `Gate ${s.language} ${s.candidate} vs ${s.baseline}: ${gate.verdict ?? gate.status}`, description: gate.reasons[0] ?? gateSetupLine(s), url: gate.url });
}

export default async function GatePage({ params }: Params) {
  const gate = await getGate((await params).id, publicOrigin());
  if (!gate) notFound();
  if (isInvalidGate(gate)) {
    return (
      <>
        <h1>
          Gate {gate.id} <VerdictBadge verdict={gate.verdict} status={gate.status} />
        </h1>
        <p className="muted">
          Runs in job <Link href={`/jobs/${gate.job.id}`}>{gate.job.id}</Link> ({gate.job.status}) · created {formatUtc(gate.createdAt)}
        </p>
        <p className="error" role="alert">
          {gate.invalid}
        </p>
      </>
    );
  }
  const stored = await getJob(gate.job.id);
  // A job that does not parse shows no cells here; its own page says what is wrong.
  const job = stored && !isInvalidJob(stored) ? stored : null;
  const s = gate.spec;
  const e = gate.evaluation;
  const live = gate.status !== 'finished';
  const ran = job?.cells.filter((c) => c.result) ?? [];
  const repro = gateReproduction(s.scenario);
  // How far this scenario's verdicts can be trusted: its A/A false alarms and the regressions it caught (bench:calibrate).
  const calibration = (
    <p className={gate.calibration ? undefined : 'muted'} data-testid="calibration">
      {calibrationText(gate.calibration, s)}
    </p>
  );

  return (
    <>
      {live && <AutoRefresh />}
      <h1>
        Gate: {s.language} {s.candidate} vs {s.baseline} <VerdictBadge verdict={gate.verdict} status={gate.status} />
        {e?.verdict === 'pass' && e.persisting && (
          <span className="verdict verdict-persisting" data-testid="persisting" title="the candidate keeps a bad mode its baseline has, no more often: a regression that persists, not a new one">
            persisting
          </span>
        )}
      </h1>
      <p className="muted">
        {gateSetupLine(s)} · scenario: {gateScenarioText(s.scenario)?.description} · created {formatUtc(gate.createdAt)}
        {gate.createdBy && <span data-testid="created-by"> by {gate.createdBy}</span>}
      </p>
      <GateActions id={gate.id} />
      <p>
        Runs in job <Link href={`/jobs/${gate.job.id}`}>{gate.job.id}</Link> ({gate.job.status}, {gate.job.cellsDone} of {gate.job.cellsTotal} cells done):{' '}
        {repro ? (
          <>
            the <Link href="/reproductions">reproduction</Link>&apos;s affected releases and the candidate in place of {repro.fixedVersion}, each cell a fresh client process; its expectations decide.
          </>
        ) : (
          'baseline and candidate interleaved, each repeat a fresh client process.'
        )}
      </p>
      {gate.job.error && (
        <p className="error" role="alert">
          {gate.job.error}
        </p>
      )}

      {e ? (
        <>
          <h2>Why</h2>
          <ul className="reasons" data-testid="reasons">
            {e.reasons.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
          {e.modes && e.modes.length > 0 && (
            <>
              <h2>Bad mode per arm</h2>
              <table data-testid="gate-modes">
                <thead>
                  <tr>
                    <th>Mode</th>
                    <th>C</th>
                    <th>Baseline</th>
                    <th>Candidate</th>
                    <th>p (one-sided)</th>
                    <th>Level</th>
                    <th>Power</th>
                    <th>Verdict</th>
                  </tr>
                </thead>
                <tbody>
                  {e.modes.map((m) => (
                    <tr key={m.concurrency} data-mode={m.concurrency}>
                      <td>{m.bad}</td>
                      <td className="num">{m.concurrency}</td>
                      <td className="num">
                        {m.baseline.bad} of {m.baseline.of}
                      </td>
                      <td className="num">
                        {m.candidate.bad} of {m.candidate.of}
                      </td>
                      <td className="num">{formatModeP(m)}</td>
                      <td className="num">{formatModeP({ pValue: m.level })}</td>
                      <td className="num" title={`to detect ${m.power.candidateRate} against ${m.power.baselineRate}; it needs ${m.power.needed ?? 'more than 50'} per arm`}>
                        {Number.isFinite(m.power.power) ? `${Math.round(m.power.power * 100)}%` : '–'}
                      </td>
                      <td>{modeVerdictText(m)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
          {calibration}
          {e.metrics.length > 0 && <h2>Per metric</h2>}
          {e.metrics.length > 0 && (
            <table data-testid="gate-table">
              <thead>
                <tr>
                  <th>Metric</th>
                  <th>C</th>
                  <th>Baseline median</th>
                  <th>Candidate median</th>
                  <th>Change</th>
                  <th>{confidenceText(e.metrics[0]?.confidence ?? 0.9)} CI</th>
                  <th>Allowed</th>
                  <th>Worst repeat</th>
                  <th>Verdict</th>
                </tr>
              </thead>
              <tbody>
                {e.metrics.map((m) => (
                  <tr key={`${m.metric}-${m.concurrency}`} data-metric={`${m.metric}-${m.concurrency}`}>
                    <td>{METRIC_NAMES[m.metric]}</td>
                    <td className="num">{m.concurrency}</td>
                    <td className="num">{formatMetricValue(m, m.baselineMedian)}</td>
                    <td className="num">{formatMetricValue(m, m.candidateMedian)}</td>
                    <td className="num">{formatChange(m)}</td>
                    <td className="num">{formatInterval(m)}</td>
                    <td className="num">
                      {m.limitPct > 0 ? '+' : '−'}
                      {Math.abs(m.limitPct)}%
                    </td>
                    <td className="num">{formatWorst(m)}</td>
                    <td>
                      <VerdictBadge verdict={m.verdict} status="" />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {(e.errors ?? []).map((x) => (
            <p key={x.concurrency} className={x.verdict === 'fail' ? 'error' : 'muted'} data-testid="gate-errors">
              {x.reason}
            </p>
          ))}
          <p className="muted small">Method: {e.method}.</p>
          {[...new Set(e.metrics.map((m) => m.concurrency))].map((c) => (
            <section key={c}>
              <h2>Every repeat at C={c}</h2>
              <GateCharts
                metrics={e.metrics
                  .filter((m) => m.concurrency === c)
                  .map((m) => ({
                    title: `${METRIC_NAMES[m.metric]} at C=${c}`,
                    unit: m.metric === 'qps' ? 'qps' : m.metric === 'rowsPerSecond' ? 'rows/s' : 'ms',
                    baseline: m.baseline,
                    candidate: m.candidate,
                    // JSON turns an undefined median (too few repeats) into null.
                    limit: m.worst ? m.worst.bound : Number.isFinite(m.baselineMedian) ? m.baselineMedian * (1 + m.limitPct / 100) : null,
                    limitLabel: m.worst ? "baseline's worst ± allowed" : 'baseline median ± allowed',
                  }))}
              />
            </section>
          ))}
        </>
      ) : (
        <>
          <p className="muted">The verdict comes when every repeat has run. The job page shows each cell as it finishes.</p>
          {calibration}
        </>
      )}

      {ran.length > 0 && job && (
        <>
          <h2>Channel distribution and time series of one cell</h2>
          <CellCharts
            streamLimit={streamLimit(job.spec.target)}
            cells={ran.map((c) => ({
              index: c.index,
              label: `${c.arm ? `${c.arm} ` : ''}${c.client.version} · ${c.configuration.label} · C=${c.concurrency} · repeat ${c.repeat}`,
              channels: c.channels,
              timeline: c.result!.timeline,
              events: c.result!.events ?? [],
            }))}
          />
        </>
      )}

      <details>
        <summary>Markdown (for a GitHub issue)</summary>
        <pre className="markdown" data-testid="markdown">
          {gateMarkdown(markdownGate(gate))}
        </pre>
      </details>
      <details>
        <summary>Gate spec (JSON)</summary>
        <pre>{JSON.stringify(s, null, 2)}</pre>
      </details>
    </>
  );
}
