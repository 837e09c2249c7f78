import Link from '@/components/PageLink';
import { GATE_SCENARIOS, gateScenarioKinds } from '@scb/shared/gate';
import { GATE_REPRODUCTIONS } from '@scb/shared/reproduction-gate';
import { Pager } from '@/components/Pager';
import { VerdictBadge } from '@/components/VerdictBadge';
import { gateCount, listGates } from '@/lib/gates';
import { GateForm } from './GateForm';
import { SpecColumns } from '@/components/SpecColumns';
import { TableHead } from '@/components/TableHead';
import { QueryIssues } from '@/components/QueryIssues';
import { parseListQuery } from '@scb/shared/list-query';
import { formatUtc } from '@scb/shared/table';

export const dynamic = 'force-dynamic';

export const metadata = { title: 'Release gates' };

const PAGE = 100;

export default async function GatesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const q = parseListQuery('gates', await searchParams);
  if (!q.ok) return <QueryIssues title="Release gates" issues={q.issues} plain="/gates" />;
  const { page } = q.value;
  const [gates, total] = await Promise.all([listGates(PAGE, (page - 1) * PAGE), gateCount()]);
  return (
    <>
      <h1>Release gates</h1>
      <p className="muted">
        A candidate version against a baseline under one scenario, repeated with the arms interleaved; pass, fail or inconclusive per metric. From CI:{' '}
        <code>npm run gate -- --client java --baseline 6.104.0 --candidate 6.105.0 --scenario affinity-burst</code> (exit 0 pass, 1 fail, 2 inconclusive or error) or <code>POST /api/gates</code>.
      </p>
      <GateForm
        scenarios={[
          ...GATE_SCENARIOS.map((s) => ({ id: s.id, title: s.title, kinds: gateScenarioKinds(s), ...(s.operation && { operation: s.operation }) })),
          ...GATE_REPRODUCTIONS.map((r) => ({ id: r.id, title: `Reproduction (${r.language}): ${r.id}`, kinds: [], language: r.language })),
        ]}
      />
      {gates.length === 0 ? (
        <p className="muted">No gates yet.</p>
      ) : (
        <table data-testid="gates-table">
          <TableHead columns={['Gate', 'Verdict', 'Created', 'By', 'Scenario', 'Client', 'Baseline', 'Candidate', 'Repeats', 'First reason']} />
          <tbody>
            {gates.map((g) => (
              <tr key={g.id}>
                <td>
                  <Link href={`/gates/${g.id}`}>{g.id}</Link>
                </td>
                <td>
                  <VerdictBadge verdict={g.verdict} status={g.status} />
                </td>
                <td className="num">{formatUtc(g.createdAt)}</td>
                <td>{g.createdBy ?? ''}</td>
                <SpecColumns invalid={g.invalid} span={6}>
                  <td>{g.scenario}</td>
                  <td>{g.language}</td>
                  <td>{g.baseline}</td>
                  <td>
                    {g.candidate}
                    {g.candidateOptions && <div className="small muted">{g.candidateOptions}</div>}
                  </td>
                  <td className="num">{g.repeats}</td>
                  <td className="small">{g.firstReason ?? ''}</td>
                </SpecColumns>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager noun="Gates" page={page} size={PAGE} total={total} href={(p) => `/gates?page=${p}`} />
    </>
  );
}
