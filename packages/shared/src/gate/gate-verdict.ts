/** A release gate's verdict, and each of its tests'. */
export type Verdict = 'pass' | 'fail' | 'inconclusive';
