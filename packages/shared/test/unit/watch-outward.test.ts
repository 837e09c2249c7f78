// What a watch shows outward: chip and release states, the Atom feed, the badge, the operator's webhooks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertAtom, childText, parseXml } from '../../../../test/helpers/xml';
import { policyFromEnv, webhookIssues } from '../../src/policy/policy';
import { atomFeed, badgeSvg, chipState, parseWatchSpec, releaseState } from '../../src/index';

test("a gate's chip is its verdict, where its job is, or that its versions could not be installed; a release fails with any scenario", () => {
  const g = (status: string, verdict: string | null, installFailure: string | null = null) => ({ status, verdict, installFailure });
  assert.equal(chipState(g('succeeded', 'pass')), 'pass');
  assert.equal(chipState(g('succeeded', 'fail')), 'fail');
  assert.equal(chipState(g('queued', null)), 'queued');
  assert.equal(chipState(g('running', null)), 'running');
  assert.equal(chipState(g('succeeded', null)), 'running', 'ended, verdict not stored yet: still being judged');
  assert.equal(chipState(g('failed', 'inconclusive', '6.999.0: not published')), 'could not install');
  assert.equal(chipState(g('running', null, '6.999.0: not published')), 'running', 'an install failure elsewhere does not decide a gate still running');
  assert.equal(chipState(g('succeeded', 'inconclusive')), 'inconclusive');
  assert.equal(chipState(g('canceled', null)), 'canceled');
  assert.equal(releaseState([g('succeeded', 'pass'), g('succeeded', 'fail'), g('running', null)]), 'fail');
  assert.equal(releaseState([g('succeeded', 'pass'), g('running', null)]), 'running');
  assert.equal(releaseState([g('succeeded', 'pass'), g('succeeded', 'inconclusive')]), 'inconclusive');
  assert.equal(releaseState([g('succeeded', 'pass'), g('succeeded', 'pass')]), 'pass');
});

test("a pass that keeps its predecessor's bad mode is persisting on the chip, the release and the badge; its stored verdict stays pass", () => {
  const persisting = { status: 'succeeded', verdict: 'pass', installFailure: null, persisting: true };
  const clean = { status: 'succeeded', verdict: 'pass', installFailure: null };
  assert.equal(chipState(persisting), 'persisting');
  assert.equal(chipState({ ...persisting, verdict: 'fail' }), 'fail', 'a failing gate is a failure, whatever its modes');
  assert.equal(releaseState([clean, persisting]), 'persisting');
  assert.equal(releaseState([persisting, { ...clean, verdict: 'fail' }]), 'fail');
  assert.equal(releaseState([persisting, { ...clean, verdict: 'inconclusive' }]), 'inconclusive');
  const svg = badgeSvg('google-cloud-spanner 6.106.0', chipState(persisting));
  assert.match(svg, /aria-label="google-cloud-spanner 6\.106\.0: persisting"/);
  assert.notEqual(svg, badgeSvg('google-cloud-spanner 6.106.0', 'pass'));
});

test('the Atom feed is well-formed RFC 4287 with user text escaped, and its updated is the newest entry', () => {
  const hostile = `6.105.0 </title><script>alert("x")</script> & 'q' \u0001`;
  const xml = atomFeed({
    self: 'http://bench.example/watch/feed.xml',
    alternate: 'http://bench.example/watch',
    title: `watch ${hostile}`,
    updated: new Date('2026-01-01T00:00:00Z'),
    entries: [
      {
        id: 'http://bench.example/gates/a1',
        title: `java ${hostile}: fail`,
        updated: new Date('2026-03-02T10:00:00Z'),
        link: 'http://bench.example/gates/a1?x=1&y=2',
        category: 'fail',
        summary: 'p99 at C=400: +300%',
      },
      { id: 'http://bench.example/gates/b2', title: 'java 6.104.0: pass', updated: new Date('2026-02-02T10:00:00Z'), link: 'http://bench.example/gates/b2', category: 'pass', summary: 'pass' },
    ],
  });
  const entries = assertAtom(xml);
  assert.equal(entries.length, 2);
  assert.equal(childText(entries[0]!, 'title'), `java ${hostile.replace('\u0001', '')}: fail`, 'the text reads back as given, the control character dropped');
  assert.equal(entries[0]!.children.find((c) => c.name === 'link')?.attrs.href, 'http://bench.example/gates/a1?x=1&y=2');
  assert.equal(childText(parseXml(xml), 'updated'), '2026-03-02T10:00:00.000Z');
  assert.ok(!xml.includes('<script>'));
  assert.throws(() => parseXml(xml.replace('&amp;', '&')), 'the parser the test relies on refuses what is not XML');
  // No entries: still a valid feed, dated by the watch.
  assert.equal(assertAtom(atomFeed({ self: 'http://x/f.xml', alternate: 'http://x/', title: 't', updated: new Date(0), entries: [] })).length, 0);
});

test('the badge is an SVG with its label and state, escaped, wide enough for both', () => {
  const svg = parseXml(badgeSvg('google-cloud-spanner 6.116.0', 'pass'));
  assert.equal(svg.name, 'svg');
  assert.equal(svg.ns, 'http://www.w3.org/2000/svg');
  assert.equal(svg.attrs.height, '20');
  assert.equal(childText(svg, 'title'), 'google-cloud-spanner 6.116.0: pass');
  const texts = svg.children.find((c) => c.name === 'g')!.children.map((t) => t.text);
  assert.ok(texts.includes('google-cloud-spanner 6.116.0') && texts.includes('pass'));
  const rects = svg.children.filter((c) => c.name === 'rect').map((r) => Number(r.attrs.width));
  assert.equal(rects[0]! + rects[1]!, Number(svg.attrs.width));
  assert.ok(Number(badgeSvg('a much longer label than that one', 'fail').match(/width="(\d+)"/)![1]) > Number(svg.attrs.width));
  assert.equal(childText(parseXml(badgeSvg('<x & "y">', 'none')), 'title'), '<x & "y">: no release yet');
});

test("webhooks are the operator's, by name: their URLs never appear in a watch or an error", () => {
  const secret = 'https://hooks.slack.com/services/T000/B000/SECRET';
  const r = policyFromEnv({ SCB_WEBHOOKS: `team-slack=${secret}, ci=http://127.0.0.1:9/hook` });
  assert.ok(r.ok);
  assert.deepEqual({ ...r.policy.webhooks }, { 'team-slack': secret, ci: 'http://127.0.0.1:9/hook' });
  for (const [value, says] of [
    [`${secret}`, 'not name=https'],
    [`Team=${secret}`, 'not name=https'],
    ['x=ftp://host/SECRET', '"x" is not an http(s) URL'],
    [`a=${secret},a=${secret}`, '"a" is named twice'],
  ] as const) {
    const bad = policyFromEnv({ SCB_WEBHOOKS: value });
    assert.ok(!bad.ok && bad.error.startsWith('SCB_WEBHOOKS: ') && bad.error.includes(says), `${value}: ${!bad.ok && bad.error}`);
    assert.ok(!bad.error.includes('SECRET'), 'the URL is not repeated');
  }
  assert.deepEqual(webhookIssues(r.policy, ['ci', 'other']), [{ path: 'webhooks.1', message: '"other" is not one of this server\'s webhooks (SCB_WEBHOOKS: team-slack, ci)' }]);
  const spec = parseWatchSpec({ language: 'go', scenarios: ['steady-select1'], webhooks: [secret, 'ci', 'ci'] });
  assert.ok(!spec.ok);
  assert.deepEqual(
    spec.issues.map((i) => i.path),
    ['webhooks.0', 'webhooks'],
  );
});
